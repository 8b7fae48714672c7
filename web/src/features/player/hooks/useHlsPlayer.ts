import { t } from '@lib/i18n';
import { readToken } from '@lib/token-cookie';
import type Hls from 'hls.js';
import type { ErrorData } from 'hls.js';
import { type Dispatch, type RefObject, useEffect, useRef } from 'react';
import { wantsBearer } from '../state/media-bearer';
import { connectionError, PLAYER_ERRORS } from '../state/player-errors';
import type { PlayerAction } from '../state/player-state';
import { warmStart } from './warm-start';

export type { Quality } from '../state/player-state';

/**
 * The player's code (hls.js), asked for as soon as a page with a player loads (this module comes with it), not
 * after that page's data has arrived and the player has rendered; the video's first requests are made meanwhile
 * without it (warm-start.ts).
 */
let hlsModule: Promise<typeof import('hls.js/light')> | undefined;
let hlsLoaded = false;
function loadHls() {
  hlsModule ??= import('hls.js/light');
  hlsModule.then(
    () => {
      hlsLoaded = true;
    },
    // A failed load (offline) is tried again by the next player or Retry.
    () => {
      hlsModule = undefined;
    },
  );
  return hlsModule;
}
loadHls();
/** After a fatal network error, loading starts again this often until the network answers. */
const RELOAD_EVERY_MS = 3000;
/** Give up a segment load sooner than hls.js's default (about 30 s), so a student hears what happened. */
const LOAD_POLICY = {
  default: {
    maxTimeToFirstByteMs: 8000,
    maxLoadTimeMs: 20000,
    timeoutRetry: { maxNumRetry: 2, retryDelayMs: 1000, maxRetryDelayMs: 3000 },
    errorRetry: { maxNumRetry: 2, retryDelayMs: 1000, maxRetryDelayMs: 3000 },
  },
};
const QUALITY_KEY = 'classroom.player.quality';
const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** The quality this device chose last (-1, Auto, when none). */
function rememberedQuality(): number {
  const stored = Number(localStorage.getItem(QUALITY_KEY) ?? -1);
  return Number.isInteger(stored) ? stored : -1;
}

/**
 * Attaches an HLS source to a <video>: hls.js (loaded only here) where MediaSource exists, native HLS on
 * iPhone Safari. Reports the quality levels, typed errors and passing notices to the player's reducer, and builds
 * the player again whenever its `build` changes (Retry).
 */
export function useHlsPlayer(
  videoRef: RefObject<HTMLVideoElement | null>,
  src: string,
  startAt: number,
  /** Start playing at once (the next lecture after a countdown the student let run). */
  autoPlay: boolean,
  store: { build: number; dispatch: Dispatch<PlayerAction> },
) {
  const { build, dispatch } = store;
  const hlsRef = useRef<Hls | null>(null);
  /**
   * Where playback starts: the resume point, until the student asks for a time (a comment's 12:34, the seek bar)
   * before the stream has loaded; that time then wins over the resume point.
   */
  const startRef = useRef(startAt);

  // Build the player: hls.js (loaded only here) where MediaSource exists, native HLS on iPhone Safari.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `build` forces a rebuild on retry; startAt is read once per source
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let cancelled = false;
    let startOnPlay: (() => void) | undefined;
    let reloadTimer: ReturnType<typeof setTimeout> | undefined;
    let stallTimer: ReturnType<typeof setInterval> | undefined;
    // Back online: load again at once (a lost connection is not the student's Retry to spend).
    const onOnline = () => hlsRef.current?.startLoad();
    window.addEventListener('online', onOnline);
    dispatch({ type: 'source' });
    startRef.current = startAt;
    /** Moves to the resume point once the stream's length is known, unless the student asked for a time since. */
    const resumeOnMetadata = () => {
      if (startRef.current > 0 && Math.abs(video.currentTime - startRef.current) > 1) {
        video.currentTime = startRef.current;
      }
    };
    /** The browser's own HLS (an older iPhone, or hls.js finding this one's MediaSource unfit). */
    const playNatively = () => {
      video.src = src;
      stallTimer = watchNativeStalls(video);
      if (autoPlay) video.play().catch(() => {});
      video.addEventListener('loadedmetadata', resumeOnMetadata, { once: true });
    };
    let warm: ReturnType<typeof warmStart> | undefined;
    (async () => {
      // Without MediaSource hls.js cannot play: the element gets its source at once, not after the first screen and
      // hls.js's download, so a play() made meanwhile is not made on an element with no source.
      if (!('MediaSource' in window || 'ManagedMediaSource' in window) && video.canPlayType(HLS_TYPE)) {
        playNatively();
        return;
      }
      // While hls.js is on its way, its first requests are made without it (warm-start.ts).
      if (!hlsLoaded) warm = warmStart(src, video, startAt <= 0 && rememberedQuality() < 0, readToken());
      const { default: HlsClass } = await loadHls();
      if (cancelled) return;
      warm?.arrived();
      if (HlsClass.isSupported()) {
        const hls = new HlsClass({
          ...warm?.loaders(HlsClass.DefaultConfig.loader),
          // Nothing but the master playlist before Play: thirty students opening a class must not pull its video.
          autoStartLoad: false,
          maxBufferLength: 30,
          maxLoadingDelay: 4,
          // The lowest rung first, whatever the bandwidth guess: on a phone's 3G the first frame comes from a small
          // segment, and the bandwidth measured on it lifts the quality for the next ones (bench:web).
          startLevel: 0,
          startPosition: startAt,
          capLevelToPlayerSize: false,
          fragLoadPolicy: LOAD_POLICY,
          // In an LMS's frame a browser may keep no cookie: the bearer is the session (media-bearer.ts).
          xhrSetup: (xhr, url) => {
            const token = readToken();
            if (token && wantsBearer(url, location.href, Date.now())) {
              xhr.setRequestHeader('authorization', `Bearer ${token}`);
            }
          },
        });
        hlsRef.current = hls;
        hls.on(HlsClass.Events.MANIFEST_PARSED, (_event, data) => {
          const remembered = rememberedQuality();
          if (remembered >= 0 && remembered < data.levels.length) {
            // A quality the student chose on this device is where it starts and stays, also when Play came before
            // this playlist (a slow network): set only on Play, it was lost then and hls.js climbed to 720p.
            // Nothing loads before startLoad, so this asks for no playlist before Play.
            dispatch({ type: 'quality', index: remembered });
            hls.startLevel = remembered;
            hls.loadLevel = remembered;
          }
          dispatch({
            type: 'levels',
            qualities: data.levels.map((level, index) => ({
              index,
              label: `${Math.min(level.width, level.height) || level.height}p`,
            })),
          });
        });
        hls.on(HlsClass.Events.LEVEL_SWITCHED, (_event, data) => dispatch({ type: 'level', level: data.level }));
        // A segment arrived: whatever network trouble there was is over.
        hls.on(HlsClass.Events.FRAG_LOADED, () => dispatch({ type: 'segment-loaded' }));
        hls.on(HlsClass.Events.ERROR, (_event, data: ErrorData) => {
          if (data.type === HlsClass.ErrorTypes.NETWORK_ERROR && !data.fatal) {
            dispatch({ type: 'notice', notice: t(connectionError(PLAYER_ERRORS.network).detail) });
            return;
          }
          if (!data.fatal) return;
          if (data.type === HlsClass.ErrorTypes.NETWORK_ERROR) {
            dispatch({ type: 'error', error: connectionError(PLAYER_ERRORS.network) });
            // Keep trying, without spending the student's retries, until a segment arrives.
            clearTimeout(reloadTimer);
            reloadTimer = setTimeout(() => hls.startLoad(), RELOAD_EVERY_MS);
          } else if (data.type === HlsClass.ErrorTypes.MEDIA_ERROR) {
            dispatch({ type: 'error', error: PLAYER_ERRORS.media });
            hls.recoverMediaError();
          } else {
            dispatch({ type: 'error', error: PLAYER_ERRORS.playback });
            hls.destroy();
            hlsRef.current = null;
            dispatch({ type: 'rebuild' });
          }
        });
        // hls.js over ManagedMediaSource (iPhone, iOS 17.1+) turns remote playback off and gives the element only its
        // blob: the playlist offered beside it as a second <source> keeps AirPlay, which hands the stream itself over.
        hls.on(HlsClass.Events.MEDIA_ATTACHED, () => offerAirPlaySource(video, src));
        hls.loadSource(src);
        hls.attachMedia(video);
        startOnPlay = () => {
          // From where the student asked (a time link before Play), else the resume point, else the start.
          hls.startLoad(startRef.current > 0 ? startRef.current : -1);
        };
        if (!video.paused) startOnPlay();
        else video.addEventListener('play', startOnPlay, { once: true });
        if (autoPlay) video.play().catch(() => {});
        video.addEventListener('loadedmetadata', resumeOnMetadata, { once: true });
      } else if (video.canPlayType(HLS_TYPE)) {
        playNatively();
      } else {
        dispatch({ type: 'error', error: PLAYER_ERRORS.unsupported });
      }
    })().catch(() => dispatch({ type: 'error', error: PLAYER_ERRORS['not-loaded'] }));
    return () => {
      cancelled = true;
      warm?.cancel();
      clearTimeout(reloadTimer);
      clearInterval(stallTimer);
      window.removeEventListener('online', onOnline);
      if (startOnPlay) video.removeEventListener('play', startOnPlay);
      video.removeEventListener('loadedmetadata', resumeOnMetadata);
      for (const source of Array.from(video.querySelectorAll('source[data-airplay]'))) source.remove();
      hlsRef.current?.destroy();
      hlsRef.current = null;
    };
  }, [src, build]);

  return {
    /** Whether hls.js drives the element (else the browser's own HLS, whose errors the element reports). */
    usesHlsJs: () => hlsRef.current !== null,
    /** Where the video is, or will start (the resume point, a time asked for) while nothing has loaded yet. */
    position() {
      const video = videoRef.current;
      if (!video) return 0;
      return video.readyState === 0 && video.currentTime === 0 ? startRef.current : video.currentTime;
    },
    /** Goes to a time the student asked for; before the stream has loaded, it replaces the resume point. */
    seekTo(seconds: number) {
      const video = videoRef.current;
      if (!video) return;
      startRef.current = seconds;
      video.currentTime = seconds;
    },
    chooseQuality(index: number) {
      dispatch({ type: 'quality', index });
      localStorage.setItem(QUALITY_KEY, String(index));
      if (hlsRef.current) hlsRef.current.currentLevel = index;
    },
  };
}

/**
 * The master playlist as a second <source> after hls.js's ManagedMediaSource blob, with remote playback allowed
 * again: WebKit plays the blob here and gives AirPlay the playlist (WebKit's "AirPlay source alternative", which
 * hls.js leaves to the page). With plain MediaSource (desktop Safari, Chromium) the element has a `src` and no
 * <source> children: nothing to do.
 */
function offerAirPlaySource(video: HTMLVideoElement, src: string) {
  if (video.getAttribute('src') || !video.querySelector('source')) return;
  if (video.querySelector('source[data-airplay]')) return;
  const source = document.createElement('source');
  source.type = 'application/x-mpegURL';
  source.src = src;
  source.dataset.airplay = '';
  video.appendChild(source);
  video.disableRemotePlayback = false;
}

/**
 * How long the clock may stand still while playing before the native path is nudged, and how far each time at one
 * spot. Further each time: in a slides lecture a seek 0.1 s on lands back on the same frame (WebKitGTK's GStreamer
 * HLS, stopped at 3.56 s with nothing buffered, was nudged three times and stayed there); 0.5 and then 1.5 s on
 * reach the next frame or the next segment's start, and loading starts again from there.
 */
const STALL_MS = 1500;
const NUDGE_SECONDS = [0.1, 0.5, 1.5];

/**
 * The engine's own HLS has no gap handling of its own we can tune: in WebKit's GStreamer HLS a slides lecture
 * (frames up to 2 s apart) sometimes stops at a frame gap with data waiting. hls.js nudges the playhead in that
 * case (its gap controller); this does the same for the native path: a clock that stands still while playing,
 * not seeking, is moved on (0.1, then 0.5, then 1.5 s), at most 3 times at one spot.
 */
function watchNativeStalls(video: HTMLVideoElement) {
  let last = -1;
  let stillSince = 0;
  let nudgesHere = 0;
  let nudgedAt = -1;
  return setInterval(() => {
    const now = performance.now();
    if (video.paused || video.ended || video.seeking || video.readyState === 0 || video.currentTime !== last) {
      last = video.currentTime;
      stillSince = now;
      return;
    }
    if (now - stillSince < STALL_MS) return;
    if (Math.abs(video.currentTime - nudgedAt) > 1) nudgesHere = 0;
    const step = NUDGE_SECONDS[nudgesHere];
    if (step === undefined) return;
    nudgesHere += 1;
    nudgedAt = video.currentTime;
    stillSince = now;
    video.currentTime = Math.min(video.currentTime + step, video.duration || Number.POSITIVE_INFINITY);
  }, 500);
}
