import { atom } from 'jotai';

/** The course page's player, as other parts of the page see it: where it is (whole seconds) and where to go. */
export const playerClockAtom = atom(0);
/** A request to seek the player (a time link in a comment); `at` makes each request new. */
export const seekRequestAtom = atom<{ seconds: number; at: number } | null>(null);
