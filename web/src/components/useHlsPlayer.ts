import type Hls from 'hls.js';
import type { ErrorData } from 'hls.js';
import { type RefObject, useEffect, useRef, useState } from 'react';

export const MAX_RETRIES = 3;
const QUALITY_KEY = 'classroom.player.quality';

/** The quality this device chose last (-1, Auto, when none). */
function rememberedQuality(): number {
  const stored = Number(localStorage.getItem(QUALITY_KEY) ?? -1);
  return Number.isInteger(stored) ? stored : -1;
}

/** The spec's quality menu: Auto (-1), then the stream's levels by their short side (240p (0), 360p (1), 720p (2)). */
export type Quality = { index: number; label: string };

/**
 * Attaches an HLS source to a <video>: hls.js (loaded only here) where MediaSource exists, native HLS on
 * iPhone Safari. Owns the quality levels, the player's error text and the spec's limited Retry.
 */
export function useHlsPlayer(videoRef: RefObject<HTMLVideoElement | null>, src: string, startAt: number) {
  const hlsRef = useRef<Hls | null>(null);
  const [build, setBuild] = useState(0);
  const [qualities, setQualities] = useState<Quality[]>([]);
  const [quality, setQuality] = useState(-1);
  const [activeLevel, setActiveLevel] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  const [retries, setRetries] = useState(0);

  // Build the player: hls.js (loaded only here) where MediaSource exists, native HLS on iPhone Safari.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `build` forces a rebuild on retry; startAt is read once per source
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let cancelled = false;
    let startOnPlay: (() => void) | undefined;
    setQualities([]);
    setQuality(-1);
    (async () => {
      const { default: HlsClass } = await import('hls.js/light');
      if (cancelled) return;
      if (HlsClass.isSupported()) {
        const hls = new HlsClass({
          // Nothing but the master playlist before Play: thirty students opening a class must not pull its video.
          autoStartLoad: false,
          maxBufferLength: 30,
          maxLoadingDelay: 4,
          startLevel: -1,
          startPosition: startAt,
          capLevelToPlayerSize: false,
        });
        hlsRef.current = hls;
        hls.on(HlsClass.Events.MANIFEST_PARSED, (_event, data) => {
          const remembered = rememberedQuality();
          if (remembered >= 0 && remembered < data.levels.length) setQuality(remembered);
          setQualities(
            data.levels.map((level, index) => ({
              index,
              label: `${Math.min(level.width, level.height) || level.height}p`,
            })),
          );
        });
        hls.on(HlsClass.Events.LEVEL_SWITCHED, (_event, data) => setActiveLevel(data.level));
        hls.on(HlsClass.Events.ERROR, (_event, data: ErrorData) => {
          if (!data.fatal) return;
          if (data.type === HlsClass.ErrorTypes.NETWORK_ERROR) {
            setError(`Network Error: ${data.details}`);
            hls.startLoad();
          } else if (data.type === HlsClass.ErrorTypes.MEDIA_ERROR) {
            setError(`Media Error: ${data.details}`);
            hls.recoverMediaError();
          } else {
            setError(`Playback Error: ${data.details}`);
            hls.destroy();
            hlsRef.current = null;
            setBuild((n) => n + 1);
          }
        });
        hls.loadSource(src);
        hls.attachMedia(video);
        startOnPlay = () => {
          hls.startLoad(startAt > 0 ? startAt : -1);
          const remembered = rememberedQuality();
          if (remembered >= 0 && remembered < hls.levels.length) hls.currentLevel = remembered;
        };
        if (!video.paused) startOnPlay();
        else video.addEventListener('play', startOnPlay, { once: true });
        if (startAt > 0) {
          video.addEventListener(
            'loadedmetadata',
            () => {
              if (video.currentTime < startAt - 1) video.currentTime = startAt;
            },
            { once: true },
          );
        }
      } else if (video.canPlayType('application/vnd.apple.mpegurl')) {
        video.src = src;
        if (startAt > 0) {
          video.addEventListener(
            'loadedmetadata',
            () => {
              video.currentTime = startAt;
            },
            { once: true },
          );
        }
      } else {
        setError('Initialization Error: this browser cannot play HLS video.');
      }
    })().catch((failure: Error) => setError(`Initialization Error: ${failure.message}`));
    return () => {
      cancelled = true;
      if (startOnPlay) video.removeEventListener('play', startOnPlay);
      hlsRef.current?.destroy();
      hlsRef.current = null;
    };
  }, [src, build]);

  return {
    /** Whether hls.js drives the element (else the browser's own HLS, whose errors the element reports). */
    usesHlsJs: () => hlsRef.current !== null,
    qualities,
    quality,
    activeLevel,
    chooseQuality(index: number) {
      setQuality(index);
      localStorage.setItem(QUALITY_KEY, String(index));
      if (hlsRef.current) hlsRef.current.currentLevel = index;
    },
    error,
    setError,
    retries,
    canRetry: retries < MAX_RETRIES,
    retry() {
      if (retries >= MAX_RETRIES) return;
      setRetries((n) => n + 1);
      setError(null);
      setBuild((n) => n + 1);
    },
  };
}
