import type Hls from 'hls.js';
import type { ErrorData } from 'hls.js';
import { type KeyboardEvent, type PointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { formatClock } from '../lib/format';
import { FullscreenIcon, MuteIcon, PauseIcon, PlayIcon, ReplayIcon, VolumeIcon } from './icons';
import { Spinner } from './Spinner';

export const MAX_RETRIES = 3;
const CONTROLS_HIDE_MS = 3000;
const SEEK_SECONDS = 5;
const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2];

/** The spec's quality menu: Auto (-1), then the stream's levels by their short side (240p (0), 360p (1), 720p (2)). */
type Quality = { index: number; label: string };

export type PlayerProps = {
  src: string;
  poster?: string | null;
  /** Where to start, in seconds (resume). */
  startAt?: number;
  onEnded?: () => void;
  /** Called every few seconds while playing, and on pause: the position to remember. */
  onPosition?: (position: number, duration: number) => void;
};

export function VideoPlayer({ src, poster, startAt = 0, onEnded, onPosition }: PlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const containerRef = useRef<HTMLElement>(null);
  const hlsRef = useRef<Hls | null>(null);
  const [build, setBuild] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [ended, setEnded] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const [muted, setMuted] = useState(false);
  const [volume, setVolume] = useState(1);
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(0);
  const [buffered, setBuffered] = useState(0);
  const [qualities, setQualities] = useState<Quality[]>([]);
  const [quality, setQuality] = useState(-1);
  const [activeLevel, setActiveLevel] = useState(-1);
  const [speed, setSpeed] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [retries, setRetries] = useState(0);
  const [controlsVisible, setControlsVisible] = useState(true);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastReported = useRef(0);
  const onPositionRef = useRef(onPosition);
  onPositionRef.current = onPosition;
  const onEndedRef = useRef(onEnded);
  onEndedRef.current = onEnded;

  // Build the player: hls.js (loaded only here) where MediaSource exists, native HLS on iPhone Safari.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `build` forces a rebuild on retry
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let cancelled = false;
    setQualities([]);
    setQuality(-1);
    (async () => {
      const { default: HlsClass } = await import('hls.js/light');
      if (cancelled) return;
      if (HlsClass.isSupported()) {
        const hls = new HlsClass({
          maxBufferLength: 30,
          maxLoadingDelay: 4,
          startLevel: -1,
          startPosition: startAt,
          capLevelToPlayerSize: false,
        });
        hlsRef.current = hls;
        hls.on(HlsClass.Events.MANIFEST_PARSED, (_event, data) => {
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
      hlsRef.current?.destroy();
      hlsRef.current = null;
    };
  }, [src, build]);

  const showControls = useCallback(() => {
    setControlsVisible(true);
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => {
      if (!videoRef.current?.paused) setControlsVisible(false);
    }, CONTROLS_HIDE_MS);
  }, []);

  useEffect(() => () => clearTimeout(hideTimer.current), []);

  const togglePlay = useCallback(() => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused || video.ended)
      video.play().catch((failure: Error) => setError(`Playback Error: ${failure.message}`));
    else video.pause();
  }, []);

  const seekBy = (seconds: number) => {
    const video = videoRef.current;
    if (video) video.currentTime = Math.min(Math.max(0, video.currentTime + seconds), video.duration || 0);
  };

  const toggleMute = () => {
    const video = videoRef.current;
    if (video) video.muted = !video.muted;
  };

  const toggleFullscreen = async () => {
    const container = containerRef.current;
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else if (container?.requestFullscreen) await container.requestFullscreen();
      else (videoRef.current as HTMLVideoElement & { webkitEnterFullscreen?: () => void })?.webkitEnterFullscreen?.();
    } catch (failure) {
      setError(`Fullscreen Error: ${(failure as Error).message}`);
    }
  };

  const chooseQuality = (index: number) => {
    setQuality(index);
    if (hlsRef.current) hlsRef.current.currentLevel = index;
  };

  const chooseSpeed = (value: number) => {
    setSpeed(value);
    if (videoRef.current) videoRef.current.playbackRate = value;
  };

  const retry = () => {
    if (retries >= MAX_RETRIES) return;
    setRetries((n) => n + 1);
    setError(null);
    setBuild((n) => n + 1);
  };

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable="true"]') && target.getAttribute('type') !== 'range')
      return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (![' ', 'ArrowLeft', 'ArrowRight', 'm', 'f'].includes(key)) return;
    event.preventDefault();
    showControls();
    if (key === ' ') togglePlay();
    else if (key === 'ArrowLeft') seekBy(-SEEK_SECONDS);
    else if (key === 'ArrowRight') seekBy(SEEK_SECONDS);
    else if (key === 'm') toggleMute();
    else toggleFullscreen();
  }

  // Progress bar: click or drag anywhere on it to seek.
  const seekFromPointer = (event: PointerEvent<HTMLDivElement>) => {
    const video = videoRef.current;
    if (!video?.duration) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const ratio = Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width));
    video.currentTime = ratio * video.duration;
    setCurrent(video.currentTime);
  };

  const reportPosition = (force = false) => {
    const video = videoRef.current;
    if (!video?.duration) return;
    const now = Date.now();
    if (!force && now - lastReported.current < 10_000) return;
    lastReported.current = now;
    onPositionRef.current?.(video.currentTime, video.duration);
  };

  // Save the position when the page goes away.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reportPosition reads refs only
  useEffect(() => {
    const onHide = () => reportPosition(true);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      reportPosition(true);
    };
  }, [src]);

  const percent = duration ? (current / duration) * 100 : 0;
  const bufferedPercent = duration ? (buffered / duration) * 100 : 0;
  const controlsShown = controlsVisible || !playing;

  return (
    <section
      ref={containerRef}
      className={`group relative aspect-video w-full overflow-hidden rounded-2xl bg-black select-none focus-visible:outline-2 ${controlsShown ? '' : 'cursor-none'}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so Space, arrows, M and F work
      tabIndex={0}
      aria-label="Video player"
      data-level={activeLevel}
      data-testid="video-player"
      onKeyDown={onKeyDown}
      onMouseMove={showControls}
      onTouchStart={showControls}
    >
      {/* biome-ignore lint/a11y/useMediaCaption: lecture uploads carry no caption track */}
      <video
        ref={videoRef}
        className="size-full"
        poster={poster ?? undefined}
        playsInline
        preload="metadata"
        onClick={togglePlay}
        onPlay={() => {
          setPlaying(true);
          setEnded(false);
          showControls();
        }}
        onPlaying={() => {
          setWaiting(false);
          setError(null);
        }}
        onPause={() => {
          setPlaying(false);
          setControlsVisible(true);
          reportPosition(true);
        }}
        onEnded={() => {
          setPlaying(false);
          setEnded(true);
          reportPosition(true);
          onEndedRef.current?.();
        }}
        onWaiting={() => setWaiting(true)}
        onCanPlay={() => setWaiting(false)}
        onTimeUpdate={(event) => {
          setCurrent(event.currentTarget.currentTime);
          reportPosition();
        }}
        onDurationChange={(event) => setDuration(event.currentTarget.duration)}
        onProgress={(event) => {
          const ranges = event.currentTarget.buffered;
          setBuffered(ranges.length ? ranges.end(ranges.length - 1) : 0);
        }}
        onVolumeChange={(event) => {
          setMuted(event.currentTarget.muted);
          setVolume(event.currentTarget.volume);
        }}
        onError={(event) => {
          if (!hlsRef.current)
            setError(`Native Player Error: ${event.currentTarget.error?.message || 'the video could not be played'}`);
        }}
      />

      {waiting && playing && !error && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <Spinner label="Buffering" size={48} />
        </div>
      )}

      {!playing && !error && (
        <button
          type="button"
          className="absolute top-1/2 left-1/2 z-10 flex size-14 sm:size-16 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-black/60 text-white backdrop-blur transition hover:bg-indigo-600"
          onClick={togglePlay}
          aria-label={ended ? 'Replay' : 'Play'}
        >
          {ended ? <ReplayIcon size={28} /> : <PlayIcon size={28} />}
        </button>
      )}

      {error && (
        <div
          role="alert"
          className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/80 p-6 text-center text-white"
        >
          <p className="max-w-md text-sm">{error}</p>
          {retries < MAX_RETRIES ? (
            <button type="button" className="btn btn-primary" onClick={retry}>
              Retry Playback
            </button>
          ) : (
            <p className="text-sm text-red-300">Maximum retry attempts reached</p>
          )}
        </div>
      )}

      <div
        className={`absolute inset-x-0 bottom-0 flex flex-col gap-1 bg-gradient-to-t from-black/80 to-transparent px-2 pt-6 pb-1 sm:px-3 sm:pb-2 text-white transition-opacity duration-300 ${
          controlsShown ? 'opacity-100' : 'pointer-events-none opacity-0'
        }`}
      >
        <div
          className="relative h-4 cursor-pointer touch-none py-1.5"
          role="slider"
          tabIndex={-1}
          aria-label="Seek"
          aria-valuemin={0}
          aria-valuemax={Math.round(duration) || 0}
          aria-valuenow={Math.round(current)}
          onPointerDown={(event) => {
            event.currentTarget.setPointerCapture(event.pointerId);
            seekFromPointer(event);
          }}
          onPointerMove={(event) => {
            if (event.currentTarget.hasPointerCapture(event.pointerId)) seekFromPointer(event);
          }}
        >
          <div className="relative h-1 overflow-hidden rounded-full bg-white/25">
            <div className="absolute inset-y-0 left-0 bg-white/40" style={{ width: `${bufferedPercent}%` }} />
            <div className="absolute inset-y-0 left-0 bg-indigo-500" style={{ width: `${percent}%` }} />
          </div>
          <div
            className="absolute top-1/2 size-3 -translate-x-1/2 -translate-y-1/2 rounded-full bg-white shadow"
            style={{ left: `${percent}%` }}
          />
        </div>
        <div className="flex items-center gap-1 sm:gap-2">
          <button
            type="button"
            className="player-btn"
            onClick={togglePlay}
            aria-label={playing ? 'Pause' : ended ? 'Replay' : 'Play'}
          >
            {playing ? <PauseIcon size={20} /> : ended ? <ReplayIcon size={20} /> : <PlayIcon size={20} />}
          </button>
          <button type="button" className="player-btn" onClick={toggleMute} aria-label={muted ? 'Unmute' : 'Mute'}>
            {muted || volume === 0 ? <MuteIcon size={20} /> : <VolumeIcon size={20} />}
          </button>
          <input
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={muted ? 0 : volume}
            aria-label="Volume"
            className="hidden w-20 accent-indigo-500 sm:block"
            onChange={(event) => {
              const video = videoRef.current;
              if (!video) return;
              video.volume = Number(event.target.value);
              video.muted = video.volume === 0;
            }}
          />
          <span className="ml-1 text-xs whitespace-nowrap tabular-nums sm:text-sm" data-testid="player-time">
            {formatClock(current)} / {formatClock(duration)}
          </span>
          <span className="min-w-0 flex-1" />
          <select
            aria-label="Playback speed"
            className="player-select"
            value={speed}
            onChange={(event) => chooseSpeed(Number(event.target.value))}
          >
            {SPEEDS.map((value) => (
              <option key={value} value={value}>
                {value}×
              </option>
            ))}
          </select>
          {qualities.length > 0 && (
            <select
              aria-label="Quality"
              className="player-select"
              value={quality}
              onChange={(event) => chooseQuality(Number(event.target.value))}
            >
              <option value={-1}>Auto</option>
              {qualities.map((q) => (
                <option key={q.index} value={q.index}>
                  {q.label}
                </option>
              ))}
            </select>
          )}
          <button type="button" className="player-btn" onClick={toggleFullscreen} aria-label="Fullscreen">
            <FullscreenIcon size={20} />
          </button>
        </div>
      </div>
    </section>
  );
}
