import { atom } from 'jotai';

/** The course page's player, as other parts of the page see it: where it is (whole seconds) and where to go. */
export const playerClockAtom = atom(0);
/** A request to seek the player (a time link in a comment); `at` makes each request new. */
export const seekRequestAtom = atom<{ seconds: number; at: number } | null>(null);

/** A place on the seek bar: a chapter (from the description or the chapter editor) or a slide of the slide index. */
export type PlayerMark = { seconds: number; label: string; kind: 'chapter' | 'slide' };
/**
 * The open lecture's marks, filled by the page (chapters, slides) and read by the player (seek-bar ticks, the
 * current chapter's name, the `[` and `]` keys). Empty when the lecture has none.
 */
export const playerMarksAtom = atom<{ chapters: PlayerMark[]; slides: PlayerMark[] }>({ chapters: [], slides: [] });
