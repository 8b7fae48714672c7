import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import type { LtiPlatform } from '../db/schema';
import { CLAIM } from './claims';
import { signAsTool } from './keys';

/**
 * The LtiDeepLinkingResponse (Deep Linking 2.0 §4.2): one ltiResourceLink to our launch URL, signed with our key,
 * from our client id to the platform. A lecture carries its id in `custom` (the launch opens it) and asks for a
 * gradebook column (`lineItem`, out of 100: the percent watched or the question score).
 */
export function signDeepLinkingResponse(
  db: Db,
  platform: LtiPlatform,
  pick: {
    deploymentId: string;
    data: string | undefined;
    launchUrl: string;
    course: { id: string; name: string };
    lecture: { id: string; title: string } | undefined;
  },
) {
  const item = pick.lecture
    ? {
        type: 'ltiResourceLink',
        title: pick.lecture.title,
        url: pick.launchUrl,
        custom: { lecture_id: pick.lecture.id, course_id: pick.course.id },
        lineItem: { scoreMaximum: 100, label: pick.lecture.title, resourceId: pick.lecture.id },
        iframe: { width: 1280, height: 800 },
      }
    : {
        type: 'ltiResourceLink',
        title: pick.course.name,
        url: pick.launchUrl,
        custom: { course_id: pick.course.id },
        iframe: { width: 1280, height: 800 },
      };
  return signAsTool(
    db,
    {
      iss: platform.clientId,
      azp: platform.clientId,
      nonce: randomBytes(16).toString('base64url'),
      [CLAIM.messageType]: 'LtiDeepLinkingResponse',
      [CLAIM.version]: '1.3.0',
      [CLAIM.deploymentId]: pick.deploymentId,
      ...(pick.data !== undefined && { [CLAIM.deepLinkingData]: pick.data }),
      [CLAIM.contentItems]: [item],
    },
    { audience: platform.issuer, expiresIn: 300 },
  );
}
