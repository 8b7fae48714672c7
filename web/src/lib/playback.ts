import { atom, useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { onSignOut } from './sign-out';
import { appStore } from './store';

/**
 * The open lecture's playback as the parts of the class page share it: the player writes where it is and reads
 * where to go and which marks to show; chapters, slides, comments and the description read and ask. Kept here, not
 * in the player, so those parts never import the player.
 */

/** The course page's player, as other parts of the page see it: where it is (whole seconds). */
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

/** Where the last person was in their lecture is not the next person's: set back at sign-out. */
function resetPlayback() {
  appStore.set(playerClockAtom, 0);
  appStore.set(seekRequestAtom, null);
  appStore.set(playerMarksAtom, { chapters: [], slides: [] });
}

// The first screen that watches the playback adds its reset: jotai calls `onMount` on an atom's first subscriber.
const registerReset = () => {
  onSignOut(resetPlayback);
};
playerClockAtom.onMount = registerReset;
seekRequestAtom.onMount = registerReset;
playerMarksAtom.onMount = registerReset;

/** What the class page gives the player it is handed (features/player's VideoPlayer, composed in routes/). */
export type PlayerProps = {
  src: string;
  poster?: string | null;
  /** Where to start, in seconds (resume). */
  startAt?: number;
  onEnded?: () => void;
  /** Called every few seconds while playing, and on pause: the position to remember. */
  onPosition?: (position: number, duration: number) => void;
  /** Start playing at once. */
  autoPlay?: boolean;
  /** The video's length as the server knows it: shown before the stream itself says (nothing loads before Play). */
  durationHint?: number;
  /** The video's width and height, so a portrait lecture is shown at its own aspect. */
  width?: number | null;
  height?: number | null;
  /** The lecture's caption tracks (WebVTT), offered by the CC control. */
  captions?: { id: string; language: string; label: string; url: string }[];
  /**
   * The lecture whose coverage the player reports (what was really played, issue 33); unset for the class's teacher
   * and administrators, whose viewing is not counted.
   */
  coverageOf?: string;
  /** The server's answer to a coverage report: the student's own percent. */
  onCoverage?: (coverage: { percent: number; completed: boolean }) => void;
  /** Drawn over the seek bar (the teacher's strip of where the class played), inside the player's own layout. */
  seekOverlay?: ReactNode;
  /** Moments the player stops at to ask something (the lecture's questions), and how far a seek may go. */
  cues?: PlayerCues;
};

/**
 * Questions inside the video, as the player sees them (features/questions makes them): the player pauses when its
 * clock reaches one of `at` while playing, and shows `render` over the picture (full screen too) until `resume`.
 */
export type PlayerCues = {
  /** Seconds of the questions not yet answered, in order. */
  at: readonly number[];
  render: (at: number, resume: () => void) => ReactNode;
  /**
   * "No skipping ahead": a seek goes no further than `until` (the first question not yet answered), nor past what
   * this person played (`played` seconds from the start, as the server counted; or further in this sitting).
   */
  seekLimit: { played: number; until: number | null } | null;
};

/** The index of the mark playing at `clock` (the last one started), or -1 before the first. */
export function currentIndex(marks: readonly { seconds: number }[], clock: number) {
  let at = -1;
  for (let i = 0; i < marks.length; i++) if ((marks[i] as { seconds: number }).seconds <= clock) at = i;
  return at;
}

/**
 * The index of the chapter or slide playing, from the player's clock (whole seconds). Just after a jump asked for
 * on the page the clock can still read the second before the mark (a seek lands a hair early and floors down), so
 * while it is within that second the mark jumped to counts as playing.
 */
export function useCurrentMark(marks: readonly { seconds: number }[]) {
  const clock = useAtomValue(playerClockAtom);
  const request = useAtomValue(seekRequestAtom);
  const jumpedTo = request ? marks.findIndex((mark) => mark.seconds === request.seconds) : -1;
  if (jumpedTo >= 0 && request && clock >= Math.floor(request.seconds) - 1 && clock <= request.seconds) return jumpedTo;
  return currentIndex(marks, clock);
}
