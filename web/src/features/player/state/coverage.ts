/**
 * What the student really played, as ranges of the video's seconds (issue 33): a range grows only while the video
 * plays and its clock moves about as fast as the wall clock allows at the playback rate. A seek, a jump the browser
 * made without one, a pause or a stall starts a new range; nothing between is counted.
 */
export type PlayedRange = [start: number, end: number];

/** The server takes at most this many ranges in one report. */
export const MAX_RANGES_PER_REPORT = 50;
/** A step of the clock may run ahead of the wall clock by this much (timeupdate's own jitter) and still count. */
const STEP_SLACK_SECONDS = 0.75;
/** A range shorter than this is left out (a frame after a seek). */
const MIN_RANGE_SECONDS = 0.05;

/** `ranges` with `range` added: sorted by start, overlapping or touching ranges merged into one. */
export function addRange(ranges: readonly PlayedRange[], range: PlayedRange): PlayedRange[] {
  const all = [...ranges, range].sort((a, b) => a[0] - b[0]);
  const merged: PlayedRange[] = [];
  for (const [start, end] of all) {
    const last = merged.at(-1);
    if (last && start <= last[1] + 0.01) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Seconds the ranges cover. */
export const rangesSeconds = (ranges: readonly PlayedRange[]) =>
  ranges.reduce((total, [start, end]) => total + (end - start), 0);

/**
 * Collects the played ranges of one video from its clock. `tick(position, playing, rate, now)` is called on every
 * timeupdate; `break()` on a seek, a pause or the end; `take()` hands over what was collected since the last take.
 */
export class PlayedRanges {
  private ranges: PlayedRange[] = [];
  /** The clock at the last tick while playing (null: a new range starts at the next tick). */
  private last: { position: number; at: number } | null = null;
  /** The fastest rate used since the last take (the server caps the seconds by it). */
  private fastest = 0;

  tick(position: number, playing: boolean, rate: number, now: number) {
    if (!playing || !Number.isFinite(position)) {
      this.last = null;
      return;
    }
    this.fastest = Math.max(this.fastest, rate);
    const last = this.last;
    this.last = { position, at: now };
    if (!last) return;
    const step = position - last.position;
    const allowed = ((now - last.at) / 1000) * Math.max(rate, 0.0625) + STEP_SLACK_SECONDS;
    // Backwards, or further than the time passed allows: a jump, not playback.
    if (step <= 0 || step > allowed) return;
    this.ranges = addRange(this.ranges, [last.position, position]);
  }

  /** The next tick starts a new range (a seek began, the video paused or ended). */
  break() {
    this.last = null;
  }

  get pending(): boolean {
    return this.ranges.some(([start, end]) => end - start >= MIN_RANGE_SECONDS);
  }

  /**
   * What was played since the last take, rounded to hundredths and at most `MAX_RANGES_PER_REPORT` ranges (any more
   * stay for the next take), with the fastest rate used; null when nothing was.
   */
  take(): { ranges: PlayedRange[]; rate: number } | null {
    const kept = this.ranges
      .map(([start, end]): PlayedRange => [Math.floor(start * 100) / 100, Math.ceil(end * 100) / 100])
      .filter(([start, end]) => end - start >= MIN_RANGE_SECONDS);
    const ranges = kept.slice(0, MAX_RANGES_PER_REPORT);
    this.ranges = kept.slice(MAX_RANGES_PER_REPORT);
    const rate = this.fastest || 1;
    this.fastest = 0;
    // The range being played goes on from where this take ended.
    if (ranges.length === 0) return null;
    return { ranges, rate: Math.min(4, Math.max(0.25, rate)) };
  }

  /** Puts back ranges a failed send handed over, so the next report carries them. */
  restore(taken: { ranges: PlayedRange[]; rate: number }) {
    for (const range of taken.ranges) this.ranges = addRange(this.ranges, range);
    this.fastest = Math.max(this.fastest, taken.rate);
  }
}
