import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';

const dir = mkdtempSync(join(tmpdir(), 'classroom-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('embedded defaults; the signing secret is made once, kept private, and read again', () => {
  const config = loadConfig({ DATA_DIR: dir });
  expect(config).toMatchObject({
    port: 3000,
    host: '0.0.0.0',
    dataDir: dir,
    databaseFile: join(dir, 'classroom.sqlite'),
    maxUploadBytes: 10 * 1024 ** 3,
    transcodeConcurrency: 1,
    keepOriginals: false,
    jobsInProcess: true,
    jobLeaseMs: 30_000,
  });
  const secretFile = join(dir, 'jwt-secret');
  expect(existsSync(secretFile)).toBe(true);
  expect(statSync(secretFile).mode & 0o777).toBe(0o600);
  expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toEqual(new TextEncoder().encode(readFileSync(secretFile, 'utf8')));
});

test('values are parsed, and empty ones fall back to the default', () => {
  const config = loadConfig({
    DATA_DIR: dir,
    PORT: '8080',
    KEEP_ORIGINALS: 'yes',
    JOBS_IN_PROCESS: 'false',
    PUBLIC_URL: 'https://class.school.example/',
    SMTP_URL: '',
  });
  expect(config).toMatchObject({ port: 8080, keepOriginals: true, jobsInProcess: false, smtpUrl: undefined });
  expect(config.publicUrl).toBe('https://class.school.example');
});

test('one error names every bad key', () => {
  let error: unknown;
  try {
    loadConfig({
      DATA_DIR: dir,
      PORT: '70000',
      SMTP_URL: 'http://mail',
      JWT_SECRET: 'short',
      KEEP_ORIGINALS: 'maybe',
      TRANSCODE_CONCURRENCY: '0',
    });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as Error).message;
  for (const key of ['PORT', 'SMTP_URL', 'JWT_SECRET', 'KEEP_ORIGINALS', 'TRANSCODE_CONCURRENCY']) {
    expect(message).toContain(`${key}:`);
  }
});

test('school sign-in: off by default, on with issuer and client id, and refused when it cannot work', () => {
  expect(loadConfig({ DATA_DIR: dir })).toMatchObject({ oidc: undefined, passwordSignin: true });
  const school = { DATA_DIR: dir, PUBLIC_URL: 'https://classroom.test', OIDC_CLIENT_ID: 'classroom' };
  const authentik = 'https://auth.school.test/application/o/classroom/';
  expect(
    loadConfig({ ...school, OIDC_ISSUER: authentik, OIDC_ALLOWED_DOMAINS: ' @School.test, staff.test' }).oidc,
  ).toEqual({
    issuer: authentik,
    clientId: 'classroom',
    clientSecret: undefined,
    buttonLabel: undefined,
    scopes: 'openid email profile',
    allowedDomains: ['school.test', 'staff.test'],
    teacherClaim: undefined,
    teacherValues: [],
    endSession: false,
  });
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return 'accepted';
    } catch (error) {
      return error instanceof ConfigError ? error.message : `unexpected ${error}`;
    }
  };
  expect(refusal({ ...school, OIDC_ISSUER: 'http://id.school.test' })).toContain(
    'OIDC_ISSUER: must be an https:// URL',
  );
  expect(refusal({ DATA_DIR: dir, OIDC_ISSUER: 'https://id.school.test', OIDC_CLIENT_ID: 'c' })).toContain(
    'PUBLIC_URL',
  );
  expect(refusal({ DATA_DIR: dir, OIDC_CLIENT_ID: 'c' })).toContain('both OIDC_ISSUER and OIDC_CLIENT_ID');
  expect(refusal({ DATA_DIR: dir, PASSWORD_SIGNIN: 'false' })).toContain('nobody could sign in');
  expect(refusal({ ...school, OIDC_ISSUER: 'https://id.school.test', OIDC_TEACHER_CLAIM: 'groups' })).toContain(
    'OIDC_TEACHER_VALUES',
  );
  expect(refusal({ ...school, OIDC_ISSUER: 'https://id.school.test', OIDC_SCOPES: 'email profile' })).toContain(
    'must include openid',
  );
});
