import { z } from 'zod';
import type { LtiPlatform } from '../db/schema';
import { withoutControl } from './text';

/** A platform's address: https, or http on this machine only (a test LMS, a local Moodle). */
export const platformUrl = withoutControl(
  z.string({ error: 'fields.ltiUrl' }).trim().max(2000, 'fields.ltiUrl'),
  'fields.ltiUrl',
)
  .pipe(z.url({ error: 'fields.ltiUrl' }))
  // zod runs this check after a failed one too: it must not throw on text that is no URL.
  .refine((text) => {
    if (!URL.canParse(text)) return false;
    const url = new URL(text);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
  }, 'fields.ltiUrl');

export function isLoopback(hostname: string) {
  return hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';
}

const platformText = withoutControl(
  z.string({ error: 'fields.ltiText' }).trim().min(1, 'fields.ltiText').max(255, 'fields.ltiText'),
  'fields.ltiText',
);

export const platformBody = z
  .object({
    name: platformText,
    issuer: platformUrl,
    clientId: platformText,
    authLoginUrl: platformUrl,
    authTokenUrl: platformUrl,
    jwksUrl: platformUrl,
    deploymentIds: z.array(platformText, { error: 'fields.ltiDeploymentIds' }).max(50, 'fields.ltiDeploymentIds'),
  })
  .strict();
export type PlatformBody = z.infer<typeof platformBody>;

export const platformPatch = platformBody
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'fields.sayWhatToChange');

/** A registered platform as the console shows it. */
export const platformJson = z.object({
  _id: z.string(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  authLoginUrl: z.string(),
  authTokenUrl: z.string(),
  jwksUrl: z.string(),
  deploymentIds: z.array(z.string()),
  createdAt: z.iso.datetime(),
});
export type PlatformJson = z.infer<typeof platformJson>;

export const deploymentIdsOf = (platform: Pick<LtiPlatform, 'deploymentIds'>): string[] => {
  try {
    const ids = JSON.parse(platform.deploymentIds);
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
};

export function toPlatformJson(platform: LtiPlatform): PlatformJson {
  return {
    _id: platform.id,
    name: platform.name,
    issuer: platform.issuer,
    clientId: platform.clientId,
    authLoginUrl: platform.authLoginUrl,
    authTokenUrl: platform.authTokenUrl,
    jwksUrl: platform.jwksUrl,
    deploymentIds: deploymentIdsOf(platform),
    createdAt: new Date(platform.createdAt).toISOString(),
  };
}

/** Our URLs a platform's setup screen asks for (docs/lti.md), shown in the console. */
export const toolUrlsJson = z.object({
  loginUrl: z.string(),
  launchUrl: z.string(),
  jwksUrl: z.string(),
  deepLinkUrl: z.string(),
  registrationUrl: z.string(),
});

/** The teacher's pick in the deep-linking picker: the class, or one of its lectures. */
export const deepLinkBody = z
  .object({
    request: z.string({ error: 'errors.invalidInput' }).min(1).max(8000),
    courseId: z.string({ error: 'fields.lectureOrCourse' }).min(1).max(64),
    lectureId: z.string().min(1).max(64).optional(),
  })
  .strict();

/** What the picker page needs: the teacher's classes and their lectures. */
export const deepLinkChoicesJson = z.object({
  platform: z.string(),
  classes: z.array(
    z.object({
      _id: z.string(),
      courseName: z.string(),
      lectures: z.array(z.object({ _id: z.string(), title: z.string() })),
    }),
  ),
});
