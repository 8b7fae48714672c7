import { t } from '@lib/i18n';
import type { PlayerCues } from '@lib/playback';
import { type Dispatch, type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { PlayerAction } from '../state/player-state';
import type { AppleVideo } from './usePlayerCommands';

/** A clock step longer than this is a jump, not playing: it asks nothing it jumped over. */
const PLAYING_STEP_SECONDS = 2;
/** A seek this far past the limit is turned back (a hair past is the player landing, not the student). */
const SEEK_SLACK_SECONDS = 0.5;
const NOTICE_MS = 3000;

/**
 * The lecture's questions in the player: when its clock, while playing, reaches a question not yet answered, the
 * video pauses (leaving the iPhone's own full screen, where nothing can be drawn over it) and the question shows
 * until it is answered; Play does nothing meanwhile. With "no skipping ahead" every seek (the bar, the keys, a
 * chapter, a slide, the native controls) stops at the limit. It only reads and drives the <video>, so hls.js,
 * native HLS and a saved copy behave the same.
 */
export function usePlayerCues(
  videoRef: RefObject<HTMLVideoElement | null>,
  containerRef: RefObject<HTMLElement | null>,
  cues: PlayerCues | undefined,
  dispatch: Dispatch<PlayerAction>,
) {
  const [cueAt, setCueAt] = useState<number | null>(null);
  const cuesRef = useRef(cues);
  cuesRef.current = cues;
  const cueRef = useRef(cueAt);
  cueRef.current = cueAt;
  const lastRef = useRef(0);
  const hasCues = !!cues;

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !hasCues) return;
    lastRef.current = video.currentTime;
    // Where this person got to by playing, in this sitting (the server's count covers earlier ones).
    let furthest = 0;
    let noticeTimer: ReturnType<typeof setTimeout> | undefined;
    const limit = () => {
      const seekLimit = cuesRef.current?.seekLimit;
      if (!seekLimit) return Number.POSITIVE_INFINITY;
      return Math.min(Math.max(seekLimit.played, furthest), seekLimit.until ?? Number.POSITIVE_INFINITY);
    };
    const onTime = () => {
      const now = video.currentTime;
      const last = lastRef.current;
      lastRef.current = now;
      if (video.seeking || now < last || now - last > PLAYING_STEP_SECONDS) return;
      furthest = Math.max(furthest, now);
      if (cueRef.current !== null) return;
      const hit = cuesRef.current?.at.find((at) => at >= last && at <= now);
      if (hit === undefined) return;
      video.pause();
      const webkit = video as AppleVideo;
      if (webkit.webkitDisplayingFullscreen) webkit.webkitExitFullscreen?.();
      setCueAt(hit);
    };
    const onSeeking = () => {
      const most = limit();
      if (video.currentTime > most + SEEK_SLACK_SECONDS) {
        video.currentTime = most;
        dispatch({ type: 'time', current: most });
        dispatch({ type: 'notice', notice: t('player.noSkipping') });
        clearTimeout(noticeTimer);
        noticeTimer = setTimeout(() => dispatch({ type: 'notice', notice: null }), NOTICE_MS);
      }
      lastRef.current = video.currentTime;
    };
    // A question waits for its answer: Play (a media key, the lock screen) does not go on without one.
    const onPlay = () => {
      if (cueRef.current !== null) video.pause();
    };
    const listening = new AbortController();
    const on = { signal: listening.signal };
    video.addEventListener('timeupdate', onTime, on);
    video.addEventListener('seeking', onSeeking, on);
    video.addEventListener('play', onPlay, on);
    return () => {
      listening.abort();
      clearTimeout(noticeTimer);
    };
  }, [videoRef, hasCues, dispatch]);

  const resume = useCallback(() => {
    const video = videoRef.current;
    cueRef.current = null;
    setCueAt(null);
    if (!video) return;
    lastRef.current = video.currentTime;
    containerRef.current?.focus({ preventScroll: true });
    video.play().catch(() => {});
  }, [videoRef, containerRef]);

  return { cueAt, resume };
}
