import { intlLocale, locale, t } from './i18n';

/** m:ss (or h:mm:ss) for player times and durations. */
export function formatClock(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * A time as a teacher types it: `m:ss`, `mm:ss` or `h:mm:ss` (seconds and minutes after an hour below 60), or a
 * plain number of seconds. Null when it does not read as a time.
 */
export function parseTime(text: string): number | null {
  const match = /^\s*(?:(\d{1,2}):)?(\d{1,3}):(\d{2})\s*$/.exec(text) ?? null;
  if (!match) return /^\s*\d{1,5}\s*$/.test(text) ? Number(text.trim()) : null;
  const [, hours, minutes, seconds] = match;
  if (Number(seconds) > 59 || (hours !== undefined && Number(minutes) > 59)) return null;
  return Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/** This browser's own time zone (IANA), for when the school's is not known. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** How far `zone`'s clocks are ahead of UTC at `time` (ms). */
function zoneOffset(zone: string, time: number) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(time))
      .map((part) => [part.type, Number(part.value)]),
  );
  const wall = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall - Math.floor(time / 1000) * 1000;
}

/** An ISO time as a `datetime-local` value (`2030-11-30T23:59`) on the clocks of `zone`. */
export function zonedInputValue(iso: string | null, zone: string): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  // `2030-11-30T23:59:00.000Z` read on the zone's clocks, without its seconds and zone.
  return new Date(time + zoneOffset(zone, time)).toISOString().replace(/:\d{2}\.\d{3}Z$/, '');
}

/** A `datetime-local` value read on the clocks of `zone`, as an ISO time; null when empty or unreadable. */
export function isoOfZonedInput(value: string, zone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as number[];
  const wall = Date.UTC(year as number, (month as number) - 1, day, hour, minute);
  // The offset at the wall time, then at the instant it gives (right across a change of summer time).
  let time = wall - zoneOffset(zone, wall);
  time = wall - zoneOffset(zone, time);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** "about 2 min left", "less than a minute left", in the language on screen. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  if (seconds < 60) return t('format.eta.underMinute');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('format.eta.minutes', { minutes });
  return t('format.eta.hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** What a student reads of a video in processing: "Processing…, ready in about 2 min" (no percent, no jargon). */
export function processingForStudents(etaSeconds: number | null): string {
  if (etaSeconds === null || !Number.isFinite(etaSeconds)) return t('format.processing');
  if (etaSeconds < 60) return t('format.processing.underMinute');
  const minutes = Math.round(etaSeconds / 60);
  if (minutes < 60) return t('format.processing.minutes', { minutes });
  return t('format.processing.hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** A phrase as a sentence: a full stop, unless it already ends in one or an ellipsis ("Processing…" stays). */
export const asSentence = (text: string) => (/[.…!?।؟]$/.test(text) ? text : `${text}${locale === 'hi' ? '।' : '.'}`);

/** A long date with hours and minutes in the language on screen, e.g. "November 22, 2026 at 10:05 AM". */
export function formatLongDate(iso: string): string {
  // The time and its AM/PM marker never part at a line's end ("03:29" | "ص").
  return new Intl.DateTimeFormat(intlLocale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  })
    .formatToParts(new Date(iso))
    .map((part, i, parts) =>
      part.type === 'literal' && /^\s+$/.test(part.value) && parts[i + 1]?.type === 'dayPeriod' ? '\u00a0' : part.value,
    )
    .join('');
}

/** A short date in the language on screen: "Nov 22, 2026". */
export const formatShortDate = (iso: string) =>
  new Date(iso).toLocaleDateString(intlLocale, { year: 'numeric', month: 'short', day: 'numeric' });

/** A due date, short: "Nov 30" this year, "Nov 30, 2027" another, with the time unless it is 23:59 (a whole day). */
export function formatDueDate(iso: string): string {
  const date = new Date(iso);
  const sameYear = date.getFullYear() === new Date().getFullYear();
  const endOfDay = date.getHours() === 23 && date.getMinutes() === 59;
  return date.toLocaleString(intlLocale, {
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
    ...(endOfDay ? {} : { hour: 'numeric', minute: '2-digit' }),
  });
}

/** A number in the language on screen ("1,234", "1.234", "١٬٢٣٤"). */
export const formatNumber = (value: number) => new Intl.NumberFormat(intlLocale).format(value);

/** "1.2 GB", "340 MB", "12 kB", in the language's own units and digits. */
export function formatBytes(bytes: number): string {
  const [value, unit, digits] =
    bytes >= 1024 ** 3
      ? [bytes / 1024 ** 3, 'gigabyte', 1]
      : bytes >= 1024 ** 2
        ? [bytes / 1024 ** 2, 'megabyte', 0]
        : [Math.max(0, bytes / 1024), 'kilobyte', 0];
  return new Intl.NumberFormat(intlLocale, {
    style: 'unit',
    unit,
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
  }).format(value);
}

/** "just now", "2 minutes ago", "3 hours ago", "yesterday", then the date, in the language on screen. */
export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  const relative = new Intl.RelativeTimeFormat(intlLocale, { numeric: 'auto' });
  if (seconds < 60) return t('format.justNow');
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), 'hour');
  if (seconds < 7 * 86_400) return relative.format(-Math.floor(seconds / 86_400), 'day');
  return formatShortDate(iso);
}

/** "12:34" or "1:02:03" in a text, as seconds; the pattern finds them. */
export const TIME_IN_TEXT = /\b(?:(\d{1,2}):)?(\d{1,2}):([0-5]\d)\b/g;
export const secondsOf = (match: RegExpMatchArray) =>
  Number(match[1] ?? 0) * 3600 + Number(match[2]) * 60 + Number(match[3]);
