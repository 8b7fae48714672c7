import type { PlayerMark } from '@lib/playback';
import { type Dispatch, type RefObject, useEffect, useMemo, useRef } from 'react';
import { adjacentMark, jumpAnnouncement } from '../state/marks';
import { PLAYER_ERRORS } from '../state/player-errors';
import type { PipSupport, PlayerAction } from '../state/player-state';

const SPEED_KEY = 'classroom.player.speed';
/** The caption language this device chose last; absent (off) by default. */
export const CAPTIONS_KEY = 'classroom.player.captions';

export const rememberedSpeed = () => {
  const stored = Number(localStorage.getItem(SPEED_KEY) ?? 1);
  return stored >= 0.25 && stored <= 4 ? stored : 1;
};

/** What Apple's engine adds to a <video> (iPhone full screen, presentation modes). */
export type AppleVideo = HTMLVideoElement & {
  webkitDisplayingFullscreen?: boolean;
  webkitEnterFullscreen?: () => void;
  webkitExitFullscreen?: () => void;
  webkitSupportsPresentationMode?: (mode: string) => boolean;
  webkitSetPresentationMode?: (mode: 'inline' | 'picture-in-picture' | 'fullscreen') => void;
  webkitPresentationMode?: string;
};

/** What the commands ask of the stream (useHlsPlayer). */
type PlayerStream = {
  seekTo: (seconds: number) => void;
  chooseQuality: (index: number) => void;
  /** The time the bar shows: before the stream loads, where it will start (the resume point). */
  position: () => number;
};

/** What the controls, the keyboard and touch ask of the player. */
export type PlayerCommands = ReturnType<typeof playerCommands>;

/**
 * The player's commands on its <video> and its frame. They read the element itself (not the last render), so a
 * key pressed twice in one frame moves twice.
 */
export function playerCommands(
  videoRef: RefObject<HTMLVideoElement | null>,
  containerRef: RefObject<HTMLElement | null>,
  dispatch: Dispatch<PlayerAction>,
  stream: PlayerStream,
  /** The marks `[` and `]` jump between, read when a key is pressed. */
  marksRef: RefObject<{ chapters: PlayerMark[]; slides: PlayerMark[] }>,
) {
  const video = () => videoRef.current as AppleVideo | null;
  return {
    togglePlay() {
      const element = video();
      if (!element) return;
      if (element.paused || element.ended)
        element.play().catch((failure: Error) => {
          // A play() cut short by a pause or a new source, or refused until the student presses Play: not errors.
          if (failure.name === 'AbortError' || failure.name === 'NotAllowedError') return;
          dispatch({ type: 'error', error: PLAYER_ERRORS.start });
        });
      else element.pause();
    },
    seekBy(seconds: number) {
      const element = video();
      if (!element) return;
      const wanted = Math.max(0, stream.position() + seconds);
      const to = element.duration ? Math.min(wanted, element.duration) : wanted;
      // Through the stream: before it loads, the new time replaces the resume point.
      stream.seekTo(to);
      dispatch({ type: 'time', current: to });
    },
    /** A share (0 to 1) of the lecture's length; while it still processes, within what the stream has. */
    seekToShare(share: number, lectureSeconds: number) {
      const element = video();
      if (!element?.duration) return;
      element.currentTime = Math.min(share * lectureSeconds, element.duration);
      dispatch({ type: 'time', current: element.currentTime });
    },
    toggleMute() {
      const element = video();
      if (element) element.muted = !element.muted;
    },
    setVolume(value: number) {
      const element = video();
      if (!element) return;
      element.volume = value;
      element.muted = value === 0;
    },
    async toggleFullscreen() {
      const container = containerRef.current;
      const element = video();
      try {
        if (document.fullscreenElement) await document.exitFullscreen();
        else if (element?.webkitDisplayingFullscreen) element.webkitExitFullscreen?.();
        else if (container?.requestFullscreen) await container.requestFullscreen();
        // An iPhone: only the <video> itself goes full screen, with the system's controls and captions.
        else if (element?.webkitEnterFullscreen) element.webkitEnterFullscreen();
        else throw new Error('no full screen');
      } catch {
        dispatch({ type: 'error', error: PLAYER_ERRORS.fullscreen });
      }
    },
    async pictureInPicture(support: PipSupport) {
      const element = video();
      try {
        if (support === 'webkit') {
          element?.webkitSetPresentationMode?.(
            element.webkitPresentationMode === 'picture-in-picture' ? 'inline' : 'picture-in-picture',
          );
        } else if (document.pictureInPictureElement) await document.exitPictureInPicture();
        else await element?.requestPictureInPicture();
      } catch {
        // refused (no playback yet, or the browser said no): nothing to undo
      }
    },
    chooseSpeed(speed: number) {
      dispatch({ type: 'speed', speed });
      localStorage.setItem(SPEED_KEY, String(speed));
      const element = video();
      if (element) {
        element.defaultPlaybackRate = speed;
        element.playbackRate = speed;
      }
    },
    chooseQuality: stream.chooseQuality,
    chooseCaptions(language: string | null) {
      dispatch({ type: 'captions', language });
      if (language) localStorage.setItem(CAPTIONS_KEY, language);
      else localStorage.removeItem(CAPTIONS_KEY);
    },
    /** Whether `[` and `]` have anywhere to go. */
    hasMarks: () => marksRef.current.slides.length > 0 || marksRef.current.chapters.length > 0,
    /** `[` and `]`: the previous or next slide (chapter when there are no slides), announced for screen readers. */
    jump(direction: 'previous' | 'next') {
      const element = video();
      if (!element) return;
      const marks = marksRef.current;
      const kind = marks.slides.length > 0 ? 'slide' : 'chapter';
      const target = adjacentMark(marks, stream.position(), direction);
      if (target) {
        // Through the stream, so that before it loads the mark wins over the resume point.
        stream.seekTo(target.mark.seconds);
        dispatch({ type: 'time', current: target.mark.seconds });
      }
      dispatch({ type: 'announce', text: jumpAnnouncement(target, kind, direction) });
    },
  };
}

/** The commands, made once per player; picture in picture is offered where the browser has it. */
export function usePlayerCommands(
  videoRef: RefObject<HTMLVideoElement | null>,
  containerRef: RefObject<HTMLElement | null>,
  dispatch: Dispatch<PlayerAction>,
  stream: PlayerStream,
  marksRef: RefObject<{ chapters: PlayerMark[]; slides: PlayerMark[] }>,
): PlayerCommands {
  // useHlsPlayer answers new functions on every render: the commands call the latest.
  const streamRef = useRef(stream);
  streamRef.current = stream;
  const commands = useMemo(
    () =>
      playerCommands(
        videoRef,
        containerRef,
        dispatch,
        {
          seekTo: (seconds) => streamRef.current.seekTo(seconds),
          chooseQuality: (index) => streamRef.current.chooseQuality(index),
          position: () => streamRef.current.position(),
        },
        marksRef,
      ),
    [videoRef, containerRef, dispatch, marksRef],
  );
  useEffect(() => {
    const element = videoRef.current as AppleVideo | null;
    if (document.pictureInPictureEnabled && element?.requestPictureInPicture)
      dispatch({ type: 'pip', support: 'standard' });
    else if (element?.webkitSupportsPresentationMode?.('picture-in-picture'))
      dispatch({ type: 'pip', support: 'webkit' });
  }, [videoRef, dispatch]);
  return commands;
}
