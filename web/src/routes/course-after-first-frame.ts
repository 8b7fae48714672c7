import { useEffect, useState } from 'react';

/** How long a class page nobody has pressed Play on waits before what comes after the video loads. */
const IDLE_MS = 1000;
/** How long it waits for a video that was started and has not shown a frame yet (a slow network, an error). */
const STARTING_MAX_MS = 8000;

/**
 * Whether the parts of a class page that no one needs before the video's first frame (comments, notes) may load:
 * once a video on the page plays, or once the page has shown for a second with no Play pressed, or at once when
 * `now` (a link to the notes, no video to play). Stays true.
 */
export function useAfterFirstFrame(shown: boolean, now: boolean): boolean {
  const [after, setAfter] = useState(now);
  if (now && !after) setAfter(true);
  useEffect(() => {
    if (after || !shown) return;
    const go = () => setAfter(true);
    let timer = setTimeout(go, IDLE_MS);
    // Media events do not bubble: they are caught on their way down.
    const started = () => {
      clearTimeout(timer);
      timer = setTimeout(go, STARTING_MAX_MS);
    };
    document.addEventListener('play', started, true);
    document.addEventListener('playing', go, true);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('play', started, true);
      document.removeEventListener('playing', go, true);
    };
  }, [after, shown]);
  return after;
}
