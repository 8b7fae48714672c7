import { COMPLETED_PARTS } from '../contract/insight';
import { LIMITS } from '../contract/limits';

/**
 * Coverage arithmetic, pure (docs/teaching.md). A video of `duration` seconds is split into PARTS equal parts; the
 * seconds played over each part accumulate (in tenths), and a part's play count follows from them: played once when
 * half of it was played, once more for each further part's length played over it.
 */
export const PARTS = LIMITS.coverageParts;
/** The most plays a part counts (one byte). */
export const MAX_PLAYS = 255;
/** The seconds a first report may claim, before the playback rate; then the time since the last report. */
export const FIRST_REPORT_SECONDS = 20;
/** Allowance for clocks, network and the player's own timer. */
export const SLACK_SECONDS = 5;
/** A report credits at most this much time since the last one (the player reports every 15 s while playing). */
export const MAX_GAP_SECONDS = 120;
/** The fastest playback a report is credited for. */
export const MAX_CREDITED_RATE = 2;
/** One offline report per lecture in this time may claim up to the video's length. */
export const OFFLINE_EVERY_MS = 60 * 60 * 1000;

export type Range = readonly [number, number];

export const emptyCounts = () => new Array<number>(PARTS).fill(0);

/** 100 play counts as 200 hex characters. */
export const encodePlays = (plays: number[]) =>
  plays.map((count) => Math.min(MAX_PLAYS, count).toString(16).padStart(2, '0')).join('');
export function decodePlays(text: string): number[] {
  const plays = emptyCounts();
  for (let part = 0; part < PARTS; part++) plays[part] = Number.parseInt(text.slice(part * 2, part * 2 + 2), 16) || 0;
  return plays;
}
export const encodeTenths = (tenths: number[]) => tenths.map((value) => Math.round(value)).join(',');
export function decodeTenths(text: string): number[] {
  const values = text ? text.split(',').map((value) => Number(value) || 0) : [];
  return Array.from({ length: PARTS }, (_, part) => values[part] ?? 0);
}

/**
 * What of `ranges` real time allows: ranges are taken in the order played, each clipped to the video, until
 * `budget` seconds are used; the rest is cut from the end. Answers the kept ranges and whether any was cut.
 */
export function capRanges(ranges: readonly Range[], duration: number, budget: number) {
  let left = Math.max(0, budget);
  let capped = false;
  const kept: Range[] = [];
  for (const [rawStart, rawEnd] of ranges) {
    const start = Math.max(0, Math.min(rawStart, duration));
    const end = Math.max(start, Math.min(rawEnd, duration));
    const length = end - start;
    if (length <= 0) continue;
    if (length <= left) {
      kept.push([start, end]);
      left -= length;
      continue;
    }
    capped = true;
    if (left > 0) kept.push([start, start + left]);
    left = 0;
  }
  return { kept, capped };
}

/** The tenths of a second each range adds over each part. */
export function addRanges(tenths: number[], ranges: readonly Range[], duration: number): number[] {
  const next = [...tenths];
  const part = duration / PARTS;
  for (const [start, end] of ranges) {
    const first = Math.max(0, Math.floor(start / part));
    const last = Math.min(PARTS - 1, Math.floor(end / part));
    for (let index = first; index <= last; index++) {
      const overlap = Math.min(end, (index + 1) * part) - Math.max(start, index * part);
      if (overlap > 0) next[index] = (next[index] ?? 0) + overlap * 10;
    }
  }
  return next;
}

/** A part's play count from the tenths played over it. */
export function playsOf(tenths: number[], duration: number): number[] {
  const part = (duration / PARTS) * 10;
  return tenths.map((played) =>
    played + 1e-6 < part / 2 ? 0 : Math.min(MAX_PLAYS, 1 + Math.floor((played - part / 2 + 1e-6) / part)),
  );
}

export const playedParts = (plays: number[]) => plays.filter((count) => count > 0).length;
/** Parts played in a row from the start: how far "no skipping ahead" lets a student seek. */
export function reachOf(plays: readonly number[]) {
  const unplayed = plays.indexOf(0);
  return unplayed === -1 ? plays.length : unplayed;
}
export const isCompleted = (parts: number) => parts >= COMPLETED_PARTS;

/** The seconds a report may add: the time since the last one (or a first report's allowance) at the credited rate. */
export function budgetSeconds(options: {
  rate: number;
  lastAt: number | undefined;
  now: number;
  offline: boolean;
  duration: number;
}): number {
  if (options.offline) return options.duration + SLACK_SECONDS;
  const elapsed =
    options.lastAt === undefined
      ? FIRST_REPORT_SECONDS
      : Math.min(MAX_GAP_SECONDS, Math.max(0, (options.now - options.lastAt) / 1000));
  return elapsed * Math.min(options.rate, MAX_CREDITED_RATE) + SLACK_SECONDS;
}

/** A short digest of a report, so the same report sent twice (a beacon after a tick) adds nothing. */
export function reportDigest(ranges: readonly Range[], offline: boolean): string {
  const text = `${offline ? 'o' : ''}${ranges.map(([start, end]) => `${start.toFixed(2)}-${end.toFixed(2)}`).join(';')}`;
  return Bun.hash(text).toString(36);
}
