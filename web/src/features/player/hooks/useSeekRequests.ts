import { seekRequestAtom } from '@lib/playback';
import { useAtomValue } from 'jotai';
import { type RefObject, useEffect, useRef } from 'react';

/** A time link elsewhere on the page (a comment's 12:34) seeks here and plays. */
export function useSeekRequests(
  videoRef: RefObject<HTMLVideoElement | null>,
  containerRef: RefObject<HTMLElement | null>,
  seekTo: (seconds: number) => void,
) {
  const seekRequest = useAtomValue(seekRequestAtom);
  const handledSeek = useRef(seekRequest?.at ?? 0);
  useEffect(() => {
    const video = videoRef.current;
    if (!seekRequest || !video || seekRequest.at === handledSeek.current) return;
    handledSeek.current = seekRequest.at;
    // Through the player, so that a time asked for before the stream loads wins over the resume point.
    seekTo(seekRequest.seconds);
    if (video.paused) video.play().catch(() => {});
    // Smooth, unless the person asked the system for less motion.
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    containerRef.current?.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
  }, [seekRequest, seekTo, videoRef, containerRef]);
}
