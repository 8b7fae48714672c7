import type { PointerEvent } from 'react';
import { formatClock } from '../lib/format';
import { FullscreenIcon, MuteIcon, PauseIcon, PlayIcon, ReplayIcon, VolumeIcon } from './icons';
import type { Quality } from './useHlsPlayer';

const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2];

/** The player's bottom bar: seek bar, play, mute and volume, time, speed, quality and fullscreen. */
export function PlayerControls({
  shown,
  playing,
  ended,
  muted,
  volume,
  current,
  duration,
  buffered,
  speed,
  qualities,
  quality,
  onTogglePlay,
  onToggleMute,
  onVolume,
  onSeekTo,
  onSpeed,
  onQuality,
  onFullscreen,
}: {
  shown: boolean;
  playing: boolean;
  ended: boolean;
  muted: boolean;
  volume: number;
  current: number;
  duration: number;
  buffered: number;
  speed: number;
  qualities: Quality[];
  quality: number;
  onTogglePlay: () => void;
  onToggleMute: () => void;
  onVolume: (volume: number) => void;
  /** A share of the duration, 0 to 1. */
  onSeekTo: (ratio: number) => void;
  onSpeed: (speed: number) => void;
  onQuality: (index: number) => void;
  onFullscreen: () => void;
}) {
  const percent = duration ? (current / duration) * 100 : 0;
  const bufferedPercent = duration ? (buffered / duration) * 100 : 0;
  // Progress bar: click or drag anywhere on it to seek.
  const seekFromPointer = (event: PointerEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    onSeekTo(Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width)));
  };
  return (
    <div
      className={`absolute inset-x-0 bottom-0 flex flex-col gap-1 bg-gradient-to-t from-black/80 to-transparent px-2 pt-6 pb-1 sm:px-3 sm:pb-2 text-white transition-opacity duration-300 ${
        shown ? 'opacity-100' : 'pointer-events-none opacity-0'
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
          onClick={onTogglePlay}
          aria-label={playing ? 'Pause' : ended ? 'Replay' : 'Play'}
        >
          {playing ? <PauseIcon size={20} /> : ended ? <ReplayIcon size={20} /> : <PlayIcon size={20} />}
        </button>
        <button type="button" className="player-btn" onClick={onToggleMute} aria-label={muted ? 'Unmute' : 'Mute'}>
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
          onChange={(event) => onVolume(Number(event.target.value))}
        />
        <span className="ml-1 text-xs whitespace-nowrap tabular-nums sm:text-sm" data-testid="player-time">
          {formatClock(current)} / {formatClock(duration)}
        </span>
        <span className="min-w-0 flex-1" />
        <select
          aria-label="Playback speed"
          className="player-select"
          value={speed}
          onChange={(event) => onSpeed(Number(event.target.value))}
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
            onChange={(event) => onQuality(Number(event.target.value))}
          >
            <option value={-1}>Auto</option>
            {qualities.map((q) => (
              <option key={q.index} value={q.index}>
                {q.label}
              </option>
            ))}
          </select>
        )}
        <button type="button" className="player-btn" onClick={onFullscreen} aria-label="Fullscreen">
          <FullscreenIcon size={20} />
        </button>
      </div>
    </div>
  );
}
