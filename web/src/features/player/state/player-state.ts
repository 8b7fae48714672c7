import type { PlayerError } from './player-errors';

/** Retry Playback rebuilds the player this many times; then the page has to be reloaded. */
export const MAX_RETRIES = 3;

/** The spec's quality menu: Auto (-1), then the stream's levels by their short side (240p (0), 360p (1), 720p (2)). */
export type Quality = { index: number; label: string };

/** Picture in picture: the standard API, WebKit's presentation modes (an iPhone's Safari), or none. */
export type PipSupport = 'standard' | 'webkit' | null;

/** Everything the player shows, in one place: what the <video> reports, the stream, captions and the controls. */
export type PlayerState = {
  playing: boolean;
  ended: boolean;
  /** Buffering: the spinner shows while it plays. */
  waiting: boolean;
  muted: boolean;
  volume: number;
  current: number;
  /** The stream's own length (shorter than the lecture while it still processes). */
  duration: number;
  buffered: number;
  speed: number;
  qualities: Quality[];
  /** The chosen quality (-1: Auto). */
  quality: number;
  /** The level hls.js plays now (data-level, for the tests). */
  activeLevel: number;
  error: PlayerError | null;
  /** A passing problem (a segment retried): shown quietly, the video goes on. */
  notice: string | null;
  retries: number;
  /** Bumped to build the player again (Retry, or hls.js gave up). */
  build: number;
  /** The caption language shown, or null (off). */
  captionLanguage: string | null;
  /** The last language turned off: the CC button turns it on again. */
  lastCaptionLanguage: string | null;
  cueLines: string[];
  /** The <video> is shown alone (its own full screen, picture in picture): the engine draws the captions there. */
  videoAlone: boolean;
  /** The player is narrow: speed, quality and captions go into one settings menu. */
  compact: boolean;
  controlsVisible: boolean;
  menuOpen: boolean;
  /** How far above the player's bottom the seek bar starts: the captions sit above it while the controls show. */
  seekTop: number;
  pipSupport: PipSupport;
  /** Read out by screen readers (a jump to a slide or chapter). */
  announcement: string;
};

export type PlayerAction =
  // The <video>'s events.
  | { type: 'play' }
  | { type: 'playing' }
  | { type: 'pause' }
  | { type: 'ended' }
  | { type: 'waiting' }
  | { type: 'can-play' }
  | { type: 'time'; current: number }
  | { type: 'duration'; duration: number }
  | { type: 'buffered'; buffered: number }
  | { type: 'volume'; muted: boolean; volume: number }
  | { type: 'speed'; speed: number }
  // The stream (useHlsPlayer).
  | { type: 'source' }
  | { type: 'levels'; qualities: Quality[] }
  | { type: 'quality'; index: number }
  | { type: 'level'; level: number }
  | { type: 'error'; error: PlayerError | null }
  | { type: 'notice'; notice: string | null }
  | { type: 'segment-loaded' }
  | { type: 'retry' }
  | { type: 'rebuild' }
  // Captions, layout and controls.
  | { type: 'captions'; language: string | null }
  | { type: 'cues'; lines: string[] }
  | { type: 'video-alone'; alone: boolean }
  | { type: 'compact'; compact: boolean }
  | { type: 'controls'; visible: boolean }
  | { type: 'menu'; open: boolean }
  | { type: 'seek-top'; px: number }
  | { type: 'pip'; support: PipSupport }
  | { type: 'announce'; text: string };

/**
 * `startAt`: where the video will start (a resume point). The time and the chapter show it before the video has
 * loaded, which waits for Play, instead of a 0:00 beside "Resuming where you stopped".
 */
export function initialPlayerState(remembered: {
  speed: number;
  captionLanguage: string | null;
  startAt?: number;
}): PlayerState {
  return {
    playing: false,
    ended: false,
    waiting: false,
    muted: false,
    volume: 1,
    current: Math.max(0, remembered.startAt ?? 0),
    duration: 0,
    buffered: 0,
    speed: remembered.speed,
    qualities: [],
    quality: -1,
    activeLevel: -1,
    error: null,
    notice: null,
    retries: 0,
    build: 0,
    captionLanguage: remembered.captionLanguage,
    lastCaptionLanguage: null,
    cueLines: [],
    videoAlone: false,
    compact: false,
    controlsVisible: true,
    menuOpen: false,
    seekTop: 0,
    pipSupport: null,
    announcement: '',
  };
}

export function playerReducer(state: PlayerState, action: PlayerAction): PlayerState {
  switch (action.type) {
    case 'play':
      return { ...state, playing: true, ended: false, controlsVisible: true };
    case 'playing':
      return { ...state, waiting: false, error: null };
    case 'pause':
      return { ...state, playing: false, controlsVisible: true };
    case 'ended':
      return { ...state, playing: false, ended: true };
    case 'waiting':
      return { ...state, waiting: true };
    case 'can-play':
      return { ...state, waiting: false };
    case 'time':
      return { ...state, current: action.current };
    case 'duration':
      return { ...state, duration: action.duration };
    case 'buffered':
      return { ...state, buffered: action.buffered };
    case 'volume':
      return { ...state, muted: action.muted, volume: action.volume };
    case 'speed':
      return { ...state, speed: action.speed };
    case 'source':
      return { ...state, qualities: [], quality: -1 };
    case 'levels':
      return { ...state, qualities: action.qualities };
    case 'quality':
      return { ...state, quality: action.index };
    case 'level':
      return { ...state, activeLevel: action.level };
    case 'error':
      return { ...state, error: action.error };
    case 'notice':
      return { ...state, notice: action.notice };
    case 'segment-loaded':
      // A segment arrived: whatever network trouble there was is over (other errors stay).
      return {
        ...state,
        notice: null,
        error: state.error?.kind === 'network' || state.error?.kind === 'offline' ? null : state.error,
      };
    case 'retry':
      if (state.retries >= MAX_RETRIES) return state;
      return { ...state, retries: state.retries + 1, error: null, build: state.build + 1 };
    case 'rebuild':
      return { ...state, build: state.build + 1 };
    case 'captions':
      return {
        ...state,
        captionLanguage: action.language,
        lastCaptionLanguage: action.language === null ? state.captionLanguage : state.lastCaptionLanguage,
      };
    case 'cues':
      return { ...state, cueLines: action.lines };
    case 'video-alone':
      return { ...state, videoAlone: action.alone };
    case 'compact':
      // The settings menu exists only on a narrow player.
      return { ...state, compact: action.compact, menuOpen: action.compact && state.menuOpen };
    case 'controls':
      return { ...state, controlsVisible: action.visible };
    case 'menu':
      return { ...state, menuOpen: action.open };
    case 'seek-top':
      return { ...state, seekTop: action.px };
    case 'pip':
      return { ...state, pipSupport: action.support };
    case 'announce':
      // The same words again still change the live region, so they are read again.
      return { ...state, announcement: action.text === state.announcement ? `${action.text}\u00a0` : action.text };
  }
}

/** The controls show while the pointer moved lately, while paused, and while the settings menu is open. */
export const controlsShown = (state: PlayerState) => state.controlsVisible || !state.playing || state.menuOpen;

export const canRetry = (state: PlayerState) => state.retries < MAX_RETRIES;
