import { type RefObject, useCallback, useEffect, useRef } from 'react';

/** Seconds of real playback before a lecture counts as started (progress saved, History, the teacher's table). */
const STARTED_AFTER_SECONDS = 3;
const REPORT_EVERY_MS = 10_000;

const playedSeconds = (video: HTMLVideoElement) => {
  let total = 0;
  for (let i = 0; i < video.played.length; i++) total += video.played.end(i) - video.played.start(i);
  return total;
};

/**
 * Reports the position to remember: every 10 s while playing (`report()`), at once on pause and end
 * (`report(true)`), and when the page or the source goes away.
 */
export function usePositionReports(
  videoRef: RefObject<HTMLVideoElement | null>,
  src: string,
  onPosition: ((position: number, duration: number) => void) | undefined,
) {
  const lastReported = useRef(0);
  const onPositionRef = useRef(onPosition);
  onPositionRef.current = onPosition;
  const report = useCallback(
    (force = false) => {
      const video = videoRef.current;
      // A lecture only opened, or played for a moment, is not "started": it stays out of history and the teacher's
      // table until a few seconds have really played.
      if (!video?.duration || playedSeconds(video) < STARTED_AFTER_SECONDS) return;
      const now = Date.now();
      if (!force && now - lastReported.current < REPORT_EVERY_MS) return;
      lastReported.current = now;
      onPositionRef.current?.(video.currentTime, video.duration);
    },
    [videoRef],
  );

  // Save the position when the page goes away.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new source reports the last one's position as it goes
  useEffect(() => {
    const onHide = () => report(true);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      report(true);
    };
  }, [src, report]);
  return report;
}
