import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { isLocale, LOCALE_CODES, type Locale, SOURCE_LOCALE } from './contract/locales';

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** A comma-separated list of email domains, lower-case, without a leading @. */
const commaList = z.string().transform((text) =>
  text
    .split(',')
    .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean),
);

/** Every setting the server reads from the environment, each with an embedded default. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// URL (unset: SQLite in DATA_DIR)')
    .optional(),
  PUBLIC_URL: z
    .url()
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Classroom <no-reply@classroom.local>'),
  MAIL_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(7),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 ** 3),
  MIN_FREE_DISK_BYTES: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(1024 ** 3),
  MAX_RECORDING_MINUTES: z.coerce.number().int().min(1).max(1440).default(120),
  TRANSCODE_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(1),
  KEEP_ORIGINALS: booleanText.default(false),
  JOBS_IN_PROCESS: booleanText.default(true),
  JOB_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  TESSERACT_PATH: z.string().min(1).default('tesseract'),
  // Tesseract's language names joined by +, as its -l takes them: eng, eng+deu, chi_sim.
  OCR_LANGUAGES: z
    .string()
    .trim()
    .regex(
      /^[a-z]{3}(_[a-z]{2,8})?(\+[a-z]{3}(_[a-z]{2,8})?){0,7}$/,
      'must be Tesseract language codes joined by +, such as eng or eng+deu',
    )
    .default('eng'),
  WEB_DIR: z.string().min(1).optional(),
  TRUST_PROXY: booleanText.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  ADMIN_EMAIL: z.string().trim().toLowerCase().pipe(z.email()).optional(),
  TEACHER_SIGNUP: z.enum(['approval', 'open', 'closed']).default('approval'),
  TEACHER_EMAIL_DOMAINS: commaList.default([]),
  STUDENT_TRACKING: z.enum(['on', 'off']).default('on'),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_EVERY: z
    .string()
    .regex(/^\d+[mhd]$/, 'must be a number with m, h or d (e.g. 6h, 1d)')
    .default('1d'),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  STORAGE_URL: z
    .string()
    .regex(
      /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9_.-]+)*\/?$/,
      'must be s3://bucket or s3://bucket/prefix (unset: the local disk)',
    )
    .refine((url) => !/\/\.{1,2}(\/|$)/.test(url.slice(5)), 'must not have . or .. in its prefix')
    .optional(),
  S3_ENDPOINT: z
    .url()
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  S3_REGION: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanText.optional(),
  SCRATCH_DIR: z.string().min(1).optional(),
  MEDIA_DELIVERY: z.enum(['stream', 'redirect']).default('stream'),
  SEGMENT_TOKEN_SECONDS: z.coerce.number().int().min(30).max(86_400).default(600),
  // School sign-in (OpenID Connect, docs/accounts.md): on when OIDC_ISSUER and OIDC_CLIENT_ID are set.
  OIDC_ISSUER: z
    .url()
    // Kept exactly as given: the provider's metadata must name the same issuer (Authentik's ends with a slash).
    .refine((url) => url.startsWith('https://'), 'must be an https:// URL (a provider on plain http is refused)')
    .optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  // Unset: "Sign in with your school account" in each person's language.
  OIDC_BUTTON_LABEL: z.string().trim().min(1).max(80).optional(),
  OIDC_SCOPES: z
    .string()
    .trim()
    .regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, 'must be scopes separated by single spaces')
    .refine((scopes) => scopes.split(' ').includes('openid'), 'must include openid')
    .default('openid email profile'),
  OIDC_ALLOWED_DOMAINS: commaList.default([]),
  OIDC_TEACHER_CLAIM: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_:./-]{1,100}$/, 'must be a claim name such as groups or roles')
    .optional(),
  OIDC_TEACHER_VALUES: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((value) => value.trim())
        .filter(Boolean),
    )
    .default([]),
  OIDC_END_SESSION: booleanText.default(false),
  PASSWORD_SIGNIN: booleanText.default(true),
  // The languages offered (docs/translating.md), and the school's own: what a person sees before choosing, and the
  // language of mails to anyone who never chose.
  LOCALES: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    )
    .refine((codes) => codes.length > 0 && codes.every(isLocale), {
      message: `must be language codes separated by commas, from ${LOCALE_CODES.join(', ')}`,
    })
    .transform((codes) => [...new Set(codes)] as Locale[])
    .default(LOCALE_CODES.filter((code) => code !== 'en-XA')),
  DEFAULT_LOCALE: z
    .string()
    .trim()
    .refine(isLocale, { message: `must be one of ${LOCALE_CODES.join(', ')}` })
    .default(SOURCE_LOCALE),
  TIME_ZONE: z
    .string()
    .trim()
    .refine(isTimeZone, { message: 'must be an IANA time zone, like Europe/Madrid or America/Chicago' })
    .default(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
});

/** Whether `zone` names a time zone this runtime knows (IANA: Europe/Madrid, UTC). */
function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** Where media, avatars and uploads are kept: DATA_DIR on the local disk, or an S3-compatible bucket. */
export type StorageSettings =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      /** Keys are stored under this prefix (no leading or trailing slash), or at the bucket's root when empty. */
      prefix: string;
      endpoint: string | undefined;
      region: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO, Garage, most self-hosted). */
      forcePathStyle: boolean;
    };

/** School sign-in with an OpenID Connect provider (docs/accounts.md). */
export type OidcSettings = Readonly<{
  issuer: string;
  clientId: string;
  /** Unset: a public client (PKCE only). */
  clientSecret: string | undefined;
  /** The school's own words for the button; unset, the catalogue's, in each person's language. */
  buttonLabel: string | undefined;
  scopes: string;
  /** Only these email domains (Google: the `hd` claim) may sign in; empty: any. */
  allowedDomains: readonly string[];
  /** A claim (string or array) naming teachers, with the values that do. */
  teacherClaim: string | undefined;
  teacherValues: readonly string[];
  /** Signing out also signs out at the provider (when it has an end_session_endpoint). */
  endSession: boolean;
}>;

export type Config = Readonly<{
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  /** postgres://… when the data lives in PostgreSQL; unset, SQLite in `databaseFile`. */
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Notification mails (and digests) sent per minute at most, across every worker (src/notifications). */
  mailRatePerMinute: number;
  /** The hour (UTC, 0 to 23) from which the daily digests go out. */
  digestHour: number;
  jwtSecret: Uint8Array;
  maxUploadBytes: number;
  minFreeDiskBytes: number;
  /** The longest recording made in the browser, in minutes (a longer one is refused when it finishes). */
  maxRecordingMinutes: number;
  transcodeConcurrency: number;
  keepOriginals: boolean;
  /** Run the job worker inside the server process (else run `src/worker.ts` beside it). */
  jobsInProcess: boolean;
  jobLeaseMs: number;
  ffmpegPath: string;
  ffprobePath: string;
  /** Tesseract, which reads the words on slides (src/media/ocr.ts); missing, slides are indexed without words. */
  tesseractPath: string;
  /** Tesseract's languages for the words on slides, joined by + (`eng+deu`). */
  ocrLanguages: string;
  webDir: string;
  /** Read the client's address from X-Forwarded-For (set only behind a reverse proxy you run). */
  trustProxy: boolean;
  logLevel: string;
  /** `json`: one JSON line per event (for a machine); `pretty`: for a terminal. */
  logFormat: 'json' | 'pretty';
  /** This address is the administrator; unset, the first account verified on a fresh install is. */
  adminEmail: string | undefined;
  /** Who may teach: `approval` (the administrator approves), `open`, or `closed` (no teacher sign-ups). */
  teacherSignup: 'approval' | 'open' | 'closed';
  /** Teachers with an address in these domains are approved at once. */
  teacherEmailDomains: readonly string[];
  /** STUDENT_TRACKING: per-student coverage and answers (on), or anonymous per-part totals only (off): docs/teaching.md. */
  studentTracking: boolean;
  backupDir: string | undefined;
  backupEveryMs: number;
  backupKeep: number;
  /** STORAGE_URL and the S3_* settings: the local disk unless STORAGE_URL names a bucket. */
  storage: StorageSettings;
  /** Local temporary files only (uploads being received, transcodes in progress, downloads for ffmpeg). */
  scratchDir: string;
  /** `stream`: the app sends media bytes; `redirect`: segments answer with a short-lived presigned URL (S3 only). */
  mediaDelivery: 'stream' | 'redirect';
  /** How long a signed segment token lasts (rung playlists and segments checked by HMAC, without a database read). */
  segmentTokenSeconds: number;
  /** OIDC_*: school sign-in, or undefined when OIDC_ISSUER and OIDC_CLIENT_ID are not both set. */
  oidc: OidcSettings | undefined;
  /** PASSWORD_SIGNIN=false: school sign-in only; the password routes refuse (but the ADMIN_EMAIL account's login). */
  passwordSignin: boolean;
  /** LOCALES: the languages offered, in the order the menus list them. */
  locales: readonly Locale[];
  /** DEFAULT_LOCALE: the school's language, always among `locales`. */
  defaultLocale: Locale;
  /** TIME_ZONE: the school's time zone (IANA): "watch by" times are typed and mailed in it. */
  timeZone: string;
}>;

export class ConfigError extends Error {}

/** Reads and checks the environment; throws one error naming every bad key. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  if (values.DATABASE_URL && !values.JWT_SECRET) {
    // Every server of a cluster must sign and check tokens with one key; a key made in one DATA_DIR would not be shared.
    throw new ConfigError(
      'JWT_SECRET must be set (32+ characters, the same on every server) when DATABASE_URL is set.',
    );
  }
  if (!values.LOCALES.includes(values.DEFAULT_LOCALE as Locale)) {
    throw new ConfigError(
      `DEFAULT_LOCALE (${values.DEFAULT_LOCALE}) must be one of LOCALES (${values.LOCALES.join(', ')}).`,
    );
  }
  if (values.MEDIA_DELIVERY === 'redirect' && !values.STORAGE_URL) {
    throw new ConfigError('MEDIA_DELIVERY=redirect needs STORAGE_URL (the local disk has no presigned URLs).');
  }
  if (values.DATABASE_URL && values.BACKUP_DIR) {
    throw new ConfigError('BACKUP_DIR snapshots SQLite only: with DATABASE_URL use pg_dump (docs/operations.md).');
  }
  if (Boolean(values.OIDC_ISSUER) !== Boolean(values.OIDC_CLIENT_ID)) {
    throw new ConfigError('School sign-in needs both OIDC_ISSUER and OIDC_CLIENT_ID (docs/accounts.md).');
  }
  if (values.OIDC_ISSUER && !values.PUBLIC_URL) {
    throw new ConfigError(
      'School sign-in needs PUBLIC_URL: the provider sends people back to PUBLIC_URL/api/auth/oidc/callback.',
    );
  }
  if (!values.PASSWORD_SIGNIN && !values.OIDC_ISSUER) {
    throw new ConfigError(
      'PASSWORD_SIGNIN=false needs school sign-in (OIDC_ISSUER and OIDC_CLIENT_ID): nobody could sign in.',
    );
  }
  if (values.OIDC_TEACHER_CLAIM && values.OIDC_TEACHER_VALUES.length === 0) {
    throw new ConfigError('OIDC_TEACHER_CLAIM needs OIDC_TEACHER_VALUES (the values that make a teacher).');
  }
  const dataDir = resolve(values.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return Object.freeze({
    port: values.PORT,
    host: values.HOST,
    dataDir,
    databaseFile: join(dataDir, 'classroom.sqlite'),
    databaseUrl: values.DATABASE_URL,
    publicUrl: values.PUBLIC_URL,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    mailRatePerMinute: values.MAIL_RATE_PER_MINUTE,
    digestHour: values.DIGEST_HOUR,
    jwtSecret: new TextEncoder().encode(values.JWT_SECRET ?? readOrCreateSecret(dataDir)),
    maxUploadBytes: values.MAX_UPLOAD_BYTES,
    minFreeDiskBytes: values.MIN_FREE_DISK_BYTES,
    maxRecordingMinutes: values.MAX_RECORDING_MINUTES,
    transcodeConcurrency: values.TRANSCODE_CONCURRENCY,
    keepOriginals: values.KEEP_ORIGINALS,
    jobsInProcess: values.JOBS_IN_PROCESS,
    jobLeaseMs: values.JOB_LEASE_SECONDS * 1000,
    ffmpegPath: values.FFMPEG_PATH,
    ffprobePath: values.FFPROBE_PATH,
    tesseractPath: values.TESSERACT_PATH,
    ocrLanguages: values.OCR_LANGUAGES,
    webDir: resolve(values.WEB_DIR ?? join(import.meta.dir, '..', 'dist', 'web')),
    trustProxy: values.TRUST_PROXY,
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT,
    adminEmail: values.ADMIN_EMAIL,
    teacherSignup: values.TEACHER_SIGNUP,
    teacherEmailDomains: values.TEACHER_EMAIL_DOMAINS,
    studentTracking: values.STUDENT_TRACKING === 'on',
    backupDir: values.BACKUP_DIR ? resolve(values.BACKUP_DIR) : undefined,
    backupEveryMs: durationMs(values.BACKUP_EVERY),
    backupKeep: values.BACKUP_KEEP,
    storage: storageSettings(values),
    scratchDir: resolve(values.SCRATCH_DIR ?? join(dataDir, 'scratch')),
    mediaDelivery: values.MEDIA_DELIVERY,
    segmentTokenSeconds: values.SEGMENT_TOKEN_SECONDS,
    oidc:
      values.OIDC_ISSUER && values.OIDC_CLIENT_ID
        ? Object.freeze({
            issuer: values.OIDC_ISSUER,
            clientId: values.OIDC_CLIENT_ID,
            clientSecret: values.OIDC_CLIENT_SECRET,
            buttonLabel: values.OIDC_BUTTON_LABEL,
            scopes: values.OIDC_SCOPES,
            allowedDomains: values.OIDC_ALLOWED_DOMAINS,
            teacherClaim: values.OIDC_TEACHER_CLAIM,
            teacherValues: values.OIDC_TEACHER_VALUES,
            endSession: values.OIDC_END_SESSION,
          })
        : undefined,
    passwordSignin: values.PASSWORD_SIGNIN,
    locales: values.LOCALES,
    defaultLocale: values.DEFAULT_LOCALE as Locale,
    timeZone: values.TIME_ZONE,
  });
}

function storageSettings(values: z.infer<typeof envSchema>): StorageSettings {
  if (!values.STORAGE_URL) return { kind: 'local' };
  const [bucket, ...prefix] = values.STORAGE_URL.slice('s3://'.length).split('/').filter(Boolean);
  return {
    kind: 's3',
    bucket,
    prefix: prefix.join('/'),
    endpoint: values.S3_ENDPOINT,
    region: values.S3_REGION,
    accessKeyId: values.S3_ACCESS_KEY_ID,
    secretAccessKey: values.S3_SECRET_ACCESS_KEY,
    // A self-hosted endpoint (MinIO, Garage) is usually path-style; AWS itself is virtual-hosted.
    forcePathStyle: values.S3_FORCE_PATH_STYLE ?? values.S3_ENDPOINT !== undefined,
  };
}

const durationMs = (text: string) =>
  Number(text.slice(0, -1)) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[text.slice(-1) as 'm' | 'h' | 'd'];

/** The signing secret lives in DATA_DIR so tokens survive restarts without any setup. */
function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
