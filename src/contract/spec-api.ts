/**
 * The calls of the spec's API table (product spec, section 7): a contract kept path for path and method for method, so
 * the spec's client and ours stay interchangeable. `src/http/openapi.test.ts` checks every one is mounted and
 * described (and, where the spec is beside the project, that this list is the spec's table).
 */
export const SPEC_API_CALLS = [
  ['POST', '/api/users/login'],
  ['POST', '/api/users/register'],
  ['GET', '/api/users'],
  ['POST', '/api/users/verify-otp'],
  ['POST', '/api/users/resend-otp'],
  ['POST', '/api/users/profile-picture'],
  ['PATCH', '/api/users/{id}/password'],
  ['PATCH', '/api/users/{id}'],
  ['GET', '/api/courses'],
  ['POST', '/api/courses'],
  ['GET', '/api/courses/{id}'],
  ['PATCH', '/api/courses/{id}'],
  ['DELETE', '/api/courses/{id}'],
  ['POST', '/api/enrollments'],
  ['POST', '/api/enrollments/join'],
  ['GET', '/api/enrollments/{courseId}/notes'],
  ['PATCH', '/api/enrollments/{courseId}/notes'],
  ['GET', '/api/lectures/course/{courseId}'],
  ['GET', '/api/lectures/{id}'],
  ['POST', '/api/lectures'],
  ['PATCH', '/api/lectures/{id}/update'],
  ['DELETE', '/api/lectures/{id}'],
  ['PATCH', '/api/lectures/{id}/view'],
  ['PATCH', '/api/lectures/{id}/like'],
  ['POST', '/api/upload'],
  ['GET', '/api/lectures/{id}/comments'],
  ['POST', '/api/lectures/{id}/comments'],
] as const;
