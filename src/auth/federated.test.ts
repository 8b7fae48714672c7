import { expect, test } from 'bun:test';
import { loadConfig } from '../config';
import { admissionProblem, displayName, type FederatedProfile, federatedStanding } from './federated';
import { profileOf } from './oidc';

const profile = (overrides: Partial<FederatedProfile> = {}): FederatedProfile => ({
  issuer: 'https://id.school.test',
  subject: 's1',
  email: 'pupil@school.test',
  emailVerified: true,
  name: 'A Pupil',
  hostedDomain: undefined,
  teacherByClaim: false,
  ...overrides,
});

test('only a verified email enters, and only from an allowed domain (Google: its hd claim, not the address)', () => {
  expect(admissionProblem(profile(), [], false)).toBeUndefined();
  expect(admissionProblem(profile({ emailVerified: false }), [], false)).toBe('email_unverified');
  expect(admissionProblem(profile({ email: undefined }), [], false)).toBe('email_unverified');
  expect(admissionProblem(profile(), ['school.test'], false)).toBeUndefined();
  expect(admissionProblem(profile({ email: 'x@gmail.com' }), ['school.test'], false)).toBe('domain_not_allowed');
  // A personal Google account whose address looks like the school's has no hd: refused.
  expect(admissionProblem(profile(), ['school.test'], true)).toBe('domain_not_allowed');
  expect(admissionProblem(profile({ hostedDomain: 'School.test' }), ['school.test'], true)).toBeUndefined();
  expect(admissionProblem(profile({ hostedDomain: 'other.test' }), ['school.test'], true)).toBe('domain_not_allowed');
});

test('the teacher claim may be a string or a list; other claims and values make a student', () => {
  const settings = loadConfig({
    DATA_DIR: '/tmp/classroom-federated-test',
    PUBLIC_URL: 'https://classroom.test',
    OIDC_ISSUER: 'https://id.school.test',
    OIDC_CLIENT_ID: 'c',
    OIDC_TEACHER_CLAIM: 'roles',
    OIDC_TEACHER_VALUES: 'Teacher, Staff',
  }).oidc as NonNullable<ReturnType<typeof loadConfig>['oidc']>;
  const claims = (extra: Record<string, unknown>) => ({ iss: 'https://id.school.test', sub: 's', ...extra });
  expect(profileOf(claims({ roles: 'Teacher' }), settings).teacherByClaim).toBe(true);
  expect(profileOf(claims({ roles: ['Pupil', 'Staff'] }), settings).teacherByClaim).toBe(true);
  expect(profileOf(claims({ roles: ['teacher'] }), settings).teacherByClaim).toBe(false);
  expect(profileOf(claims({ groups: ['Teacher'] }), settings).teacherByClaim).toBe(false);
  // email_verified must be the boolean true; Entra's xms_edov counts.
  expect(profileOf(claims({ email: 'A@B.test', email_verified: 'true' }), settings)).toMatchObject({
    email: 'a@b.test',
    emailVerified: false,
  });
  expect(profileOf(claims({ email: 'a@b.test', xms_edov: true }), settings).emailVerified).toBe(true);
  expect(profileOf(claims({ given_name: 'Ada', family_name: 'L' }), settings).name).toBe('Ada L');
});

test('role and standing of a new account: claim, teacher domains, ADMIN_EMAIL', () => {
  const policy = {
    adminEmail: 'head@school.test',
    teacherSignup: 'approval' as const,
    teacherEmailDomains: ['staff.test'],
  };
  expect(federatedStanding(policy, profile(), 'pupil@school.test', true)).toEqual({
    role: 'student',
    isAdmin: false,
    teacherStatus: null,
  });
  expect(federatedStanding(policy, profile({ teacherByClaim: true }), 'ms@school.test', false)).toEqual({
    role: 'teacher',
    isAdmin: false,
    teacherStatus: 'approved',
  });
  expect(federatedStanding(policy, profile(), 'mr@staff.test', false)).toMatchObject({
    role: 'teacher',
    teacherStatus: 'approved',
  });
  expect(federatedStanding({ ...policy, teacherSignup: 'closed' }, profile(), 'mr@staff.test', false).role).toBe(
    'student',
  );
  expect(federatedStanding(policy, profile(), 'head@school.test', false).isAdmin).toBe(true);
});

test('a name people can read, within the limits, never empty', () => {
  expect(displayName(profile({ name: '  Ada\u202E  Lovelace\u0007 ' }))).toBe('Ada Lovelace');
  expect(displayName(profile({ name: 'x'.repeat(100) }))).toHaveLength(40);
  expect(displayName(profile({ name: undefined, email: 'jo.smith@school.test' }))).toBe('jo.smith');
  expect(displayName(profile({ name: 'J', email: 'j@school.test' }))).toBe('School user');
});
