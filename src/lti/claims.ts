/** The LTI 1.3 claim names (IMS LTI Core 1.3, Deep Linking 2.0, NRPS 2.0, AGS 2.0). */
export const CLAIM = {
  messageType: 'https://purl.imsglobal.org/spec/lti/claim/message_type',
  version: 'https://purl.imsglobal.org/spec/lti/claim/version',
  deploymentId: 'https://purl.imsglobal.org/spec/lti/claim/deployment_id',
  targetLinkUri: 'https://purl.imsglobal.org/spec/lti/claim/target_link_uri',
  resourceLink: 'https://purl.imsglobal.org/spec/lti/claim/resource_link',
  roles: 'https://purl.imsglobal.org/spec/lti/claim/roles',
  context: 'https://purl.imsglobal.org/spec/lti/claim/context',
  custom: 'https://purl.imsglobal.org/spec/lti/claim/custom',
  launchPresentation: 'https://purl.imsglobal.org/spec/lti/claim/launch_presentation',
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  deepLinkingData: 'https://purl.imsglobal.org/spec/lti-dl/claim/data',
  contentItems: 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items',
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
  ags: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  toolConfiguration: 'https://purl.imsglobal.org/spec/lti-tool-configuration',
  platformConfiguration: 'https://purl.imsglobal.org/spec/lti-platform-configuration',
} as const;

export const SCOPE = {
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  lineItemReadOnly: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  resultReadOnly: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
} as const;

const CONTEXT_ROLE = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';
const SUB_ROLE = 'http://purl.imsglobal.org/vocab/lis/v2/membership/';
const INSTITUTION_ROLE = 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#';

/**
 * Our role for the LMS's roles: a context Instructor or Administrator (a Moodle admin adding the activity) teaches,
 * a Learner watches; anything else (a mentor, a guest, a content developer) is refused. Short names ("Instructor")
 * are read as context roles, as LTI 1.3 allows. Institution roles alone never give a class.
 */
export function classRoleOf(roles: readonly string[]): 'teacher' | 'student' | undefined {
  const contextRoles = roles
    .filter((role) => !role.startsWith(INSTITUTION_ROLE) && !role.includes('/system/person#'))
    .map((role) => (role.startsWith(CONTEXT_ROLE) ? role.slice(CONTEXT_ROLE.length) : role))
    // Sub-roles (".../membership/Instructor#TeachingAssistant") count as their principal role.
    .map((role) => (role.startsWith(SUB_ROLE) ? role.slice(SUB_ROLE.length).split('#')[0] : role));
  if (contextRoles.includes('Instructor') || contextRoles.includes('Administrator')) return 'teacher';
  if (contextRoles.includes('Learner')) return 'student';
  return undefined;
}
