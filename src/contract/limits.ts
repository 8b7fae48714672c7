/**
 * Limits that the server enforces and the web app checks before sending: written once, imported by both.
 * Pure constants only, so the web bundle can import this file at run time.
 */
export const LIMITS = {
  usernameMin: 2,
  usernameMax: 40,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 200,
  courseNameMax: 120,
  semesterMin: 1,
  semesterMax: 12,
  topicNameMax: 200,
  videoLinkMax: 2000,
  commentMax: 2000,
  notesMax: 100_000,
  inviteCodeInputMax: 32,
  /** The digits of an email code. */
  otpDigits: 6,
  searchQueryMax: 200,
  avatarMaxBytes: 5 * 1024 * 1024,
  captionMaxBytes: 1024 * 1024,
  captionLabelMax: 40,
  /** The longest language tag the captions' pattern takes (`xxx-xxxxxxxx-xxxxxxxx`). */
  captionLanguageMax: 21,
  captionsPerLecture: 20,
  /** A lecture's description (its timed lines are chapters: src/contract/chapters.ts). */
  descriptionMax: 5000,
  chaptersMax: 100,
  /** Fewer timed lines in a description are plain text, not chapters. */
  chaptersMin: 2,
  chapterTitleMax: 100,
  /** A slide's title (the teacher's, shown as a chapter). */
  slideTitleMax: 120,
  chapterMinSeconds: 10,
  /** A lecture's video is split into this many parts for coverage (src/contract/insight.ts). */
  coverageParts: 100,
  /** The ranges one coverage report may carry. */
  coverageRangesMax: 50,
  /** The furthest second a coverage range may name (a day; the lecture's duration is checked too). */
  coverageSecondsMax: 86_400,
  playbackRateMin: 0.25,
  playbackRateMax: 4,
  insightPageSizeDefault: 50,
  insightPageSizeMax: 100,
  insightPageMax: 10_000,
  /** Questions inside a lecture (src/contract/questions.ts). */
  questionsPerLecture: 50,
  questionPromptMax: 500,
  questionChoicesMin: 2,
  questionChoicesMax: 6,
  questionChoiceMax: 200,
  /** A student's short answer. */
  shortAnswerMax: 2000,
  /** Tries at a question with feedback (a question without feedback takes one answer). */
  questionTriesMax: 3,
} as const;

/** Ids are opaque url-safe strings; anything else cannot name a row. ID_CHARS is one inside a longer pattern. */
export const ID_CHARS = '[A-Za-z0-9_-]{1,64}';
export const ID_PATTERN = new RegExp(`^${ID_CHARS}$`);

/** The 6 digits of an email code. */
export const OTP_PATTERN = new RegExp(`^\\d{${LIMITS.otpDigits}}$`);

/** No 0/O, 1/I/L: a code read off a projector cannot be mistyped into another. */
export const INVITE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const INVITE_CODE_LENGTH = 7;

/** How a typed or scanned code is compared: trimmed, upper-case, spaces and dashes dropped. */
export function normalizeInviteCode(input: string): string {
  return input.replace(/[\s-]+/g, '').toUpperCase();
}
