import { formatClock } from '@lib/format';
import { t } from '@lib/i18n';
import type { PlayerMark } from '@lib/playback';

/** Marks in time order, without any past the end of the video. */
export function marksWithin(marks: PlayerMark[], duration: number): PlayerMark[] {
  return marks.filter((mark) => mark.seconds >= 0 && (!duration || mark.seconds <= duration)).sort(byTime);
}

const byTime = (a: PlayerMark, b: PlayerMark) => a.seconds - b.seconds;

/** A time this close after a mark counts as at it (a seek lands a hair before the time asked for). */
const AT_MARK_SECONDS = 0.25;

/** The mark the time is in (the last one at or before it), or null before the first. */
export function markAt(sorted: PlayerMark[], seconds: number): PlayerMark | null {
  let found: PlayerMark | null = null;
  for (const mark of sorted) {
    if (mark.seconds <= seconds + AT_MARK_SECONDS) found = mark;
    else break;
  }
  return found;
}

/**
 * The mark `[` (previous) or `]` (next) goes to: the slide before or after the one showing. Slides when the lecture
 * has any, else chapters; null when there is none that way (or no marks at all).
 */
export function adjacentMark(
  marks: { chapters: PlayerMark[]; slides: PlayerMark[] },
  seconds: number,
  direction: 'previous' | 'next',
): { mark: PlayerMark; index: number; total: number } | null {
  const sorted = marks.slides.length > 0 ? marks.slides : marks.chapters;
  const current = markAt(sorted, seconds);
  const currentIndex = current ? sorted.indexOf(current) : -1;
  const index = direction === 'next' ? currentIndex + 1 : currentIndex - 1;
  const mark = sorted[index];
  return mark ? { mark, index, total: sorted.length } : null;
}

/** What a screen reader hears after `[` or `]`. */
export function jumpAnnouncement(
  jump: ReturnType<typeof adjacentMark>,
  kind: 'chapter' | 'slide',
  direction: 'previous' | 'next',
): string {
  if (!jump) {
    const none = {
      slide: { previous: 'player.jump.noPreviousSlide', next: 'player.jump.noNextSlide' },
      chapter: { previous: 'player.jump.noPreviousChapter', next: 'player.jump.noNextChapter' },
    } as const;
    return t(none[kind][direction]);
  }
  return t('player.jump.mark', {
    label: jump.mark.label,
    position: jump.index + 1,
    total: jump.total,
    time: formatClock(jump.mark.seconds),
  });
}

/**
 * The ticks worth drawing on a seek bar `widthPx` wide: every chapter, and the slides at least `gapPx` from the
 * tick drawn before them and from every chapter (up to 300 slides would otherwise paint the bar solid on a phone).
 */
export function visibleTicks(
  chapters: PlayerMark[],
  slides: PlayerMark[],
  duration: number,
  widthPx: number,
  gapPx = 4,
): PlayerMark[] {
  if (!duration || widthPx <= 0) return [];
  const x = (mark: PlayerMark) => (mark.seconds / duration) * widthPx;
  const chapterXs = chapters.map(x);
  const kept: PlayerMark[] = [];
  let lastX = Number.NEGATIVE_INFINITY;
  for (const slide of slides) {
    const at = x(slide);
    // The start of the bar needs no tick: the bar itself begins there.
    if (at < gapPx || at - lastX < gapPx || chapterXs.some((chapterX) => Math.abs(chapterX - at) < gapPx)) continue;
    kept.push(slide);
    lastX = at;
  }
  return [...chapters.filter((chapter) => x(chapter) >= gapPx), ...kept];
}
