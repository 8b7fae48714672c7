import { type PointerEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { formatClock } from '../../../lib/format';
import { useDismiss } from '../../../lib/use-dismiss';
import { FullscreenIcon, MuteIcon, PauseIcon, PlayIcon, ReplayIcon, SettingsIcon, VolumeIcon } from '../../../ui/icons';
import type { Quality } from '../hooks/useHlsPlayer';

const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2];

/**
 * The player's bottom bar: seek bar, play, mute and volume, time, speed, quality, picture-in-picture and
 * fullscreen. `compact` (the player's own width is small: a phone, a narrow column on a tablet) puts speed and
 * quality into one settings menu, as YouTube's gear does, so nothing is ever cut off.
 */
export function PlayerControls({
  barRef,
  onMenuOpen,
  compact,
  onPictureInPicture,
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
  captions,
  captionLanguage,
  onCaptions,
}: {
  /** The bar itself: the player measures where its seek bar starts, to keep the captions above it. */
  barRef?: RefObject<HTMLDivElement | null>;
  /** Told when the compact settings menu opens or closes. */
  onMenuOpen?: (open: boolean) => void;
  compact: boolean;
  /** Present where the browser has picture-in-picture. */
  onPictureInPicture?: () => void;
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
  captions: { language: string; label: string }[];
  /** The language shown, or null (off). */
  captionLanguage: string | null;
  onCaptions: (language: string | null) => void;
}) {
  // The CC button turns the last chosen (or the first) language on and off; with several, a menu picks one.
  const [lastLanguage, setLastLanguage] = useState<string | null>(null);
  const ccLanguage = captions.find((caption) => caption.language === (captionLanguage ?? lastLanguage))?.language;
  const toggleCaptions = () => {
    if (captionLanguage) {
      setLastLanguage(captionLanguage);
      onCaptions(null);
    } else onCaptions(ccLanguage ?? captions[0]?.language ?? null);
  };
  const captionsSelect = captions.length > 1 && (
    <select
      aria-label="Captions language"
      className="player-select"
      value={captionLanguage ?? ''}
      onChange={(event) => onCaptions(event.target.value || null)}
    >
      <option value="">Off</option>
      {captions.map((caption) => (
        <option key={caption.language} value={caption.language}>
          {caption.label}
        </option>
      ))}
    </select>
  );
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  /** The menu's right edge, from the bar's right edge: under it sits the Settings button. */
  const [menuRight, setMenuRight] = useState(0);
  // The settings menu closes on Escape and on a click outside it.
  useDismiss(menuOpen, [menuRef, panelRef], () => setMenuOpen(false));
  useEffect(() => {
    if (!compact) setMenuOpen(false);
  }, [compact]);
  const onMenuOpenRef = useRef(onMenuOpen);
  onMenuOpenRef.current = onMenuOpen;
  useEffect(() => {
    onMenuOpenRef.current?.(menuOpen);
  }, [menuOpen]);
  const toggleMenu = () => {
    const bar = barRef?.current ?? panelRef.current?.parentElement;
    const button = menuRef.current;
    if (bar && button)
      setMenuRight(Math.max(0, bar.getBoundingClientRect().right - button.getBoundingClientRect().right));
    setMenuOpen((open) => !open);
  };

  const speedSelect = (
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
  );
  const qualitySelect = qualities.length > 0 && (
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
  );
  const percent = duration ? (current / duration) * 100 : 0;
  const bufferedPercent = duration ? (buffered / duration) * 100 : 0;
  // Progress bar: click or drag anywhere on it to seek.
  const seekFromPointer = (event: PointerEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    onSeekTo(Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width)));
  };
  return (
    <div
      ref={barRef}
      className={`absolute inset-x-0 bottom-0 z-20 flex flex-col gap-1 bg-gradient-to-t from-black/80 to-transparent pt-6 text-white transition-opacity duration-300 ${compact ? 'px-1.5 pb-1' : 'px-3 pb-2'} ${
        shown ? 'opacity-100' : 'pointer-events-none opacity-0'
      }`}
    >
      {compact && menuOpen && (
        // Above the whole bar (seek bar included), its right edge under the Settings button: one label column,
        // one column of same-width selects.
        <div
          ref={panelRef}
          id={menuId}
          className="absolute bottom-full grid max-w-[calc(100%-0.75rem)] [&_.player-select]:w-full [&_.player-select]:min-w-24 grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-2 rounded-xl bg-black/90 p-2.5 text-xs shadow-lg"
          style={{ right: menuRight }}
        >
          <span>Speed</span>
          {speedSelect}
          {qualitySelect && (
            <>
              <span>Quality</span>
              {qualitySelect}
            </>
          )}
          {captionsSelect && (
            <>
              <span>Captions</span>
              {captionsSelect}
            </>
          )}
        </div>
      )}
      <div
        className="player-seek relative flex cursor-pointer touch-none items-center"
        role="slider"
        // Reachable by Tab; the arrows seek (handled by the player, like everywhere in it).
        tabIndex={0}
        aria-label="Seek"
        aria-valuemin={0}
        aria-valuemax={Math.round(duration) || 0}
        aria-valuenow={Math.round(current)}
        aria-valuetext={`${formatClock(current)} of ${formatClock(duration)}`}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          seekFromPointer(event);
        }}
        onPointerMove={(event) => {
          if (event.currentTarget.hasPointerCapture(event.pointerId)) seekFromPointer(event);
        }}
      >
        <div className="relative h-1 w-full overflow-hidden rounded-full bg-white/25">
          <div className="absolute inset-y-0 left-0 bg-white/40" style={{ width: `${bufferedPercent}%` }} />
          <div className="absolute inset-y-0 left-0 bg-indigo-500" style={{ width: `${percent}%` }} />
        </div>
        <div
          className="absolute top-1/2 size-3 -translate-x-1/2 -translate-y-1/2 rounded-full bg-white shadow"
          style={{ left: `${percent}%` }}
        />
      </div>
      <div className={`flex items-center ${compact ? 'gap-0.5' : 'gap-2'}`}>
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
          className={`player-volume w-20 accent-indigo-500 ${compact ? 'hidden' : 'block'}`}
          onChange={(event) => onVolume(Number(event.target.value))}
        />
        <span
          className={`ml-1 whitespace-nowrap tabular-nums ${compact ? 'text-xs' : 'text-sm'}`}
          data-testid="player-time"
        >
          {formatClock(current)} / {formatClock(duration)}
        </span>
        <span className="min-w-0 flex-1" />
        {compact ? (
          <div ref={menuRef} className="relative">
            <button
              type="button"
              className="player-btn"
              aria-label="Settings"
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={toggleMenu}
            >
              <SettingsIcon size={20} />
            </button>
          </div>
        ) : (
          <>
            {speedSelect}
            {qualitySelect}
            {captionsSelect}
          </>
        )}
        {captions.length > 0 && (
          <button
            type="button"
            className="player-btn"
            onClick={toggleCaptions}
            aria-label="Captions"
            aria-pressed={captionLanguage !== null}
          >
            <CaptionsIcon on={captionLanguage !== null} />
          </button>
        )}
        {onPictureInPicture && (
          <button type="button" className="player-btn" onClick={onPictureInPicture} aria-label="Picture in picture">
            <PictureInPictureIcon />
          </button>
        )}
        <button type="button" className="player-btn" onClick={onFullscreen} aria-label="Fullscreen">
          <FullscreenIcon size={20} />
        </button>
      </div>
    </div>
  );
}

function CaptionsIcon({ on }: { on: boolean }) {
  // "CC" drawn as two arcs, not text: the button's name is its label alone.
  return (
    <svg width={22} height={22} viewBox="0 0 24 24" fill="none" strokeWidth={2} aria-hidden="true">
      <rect x="2.5" y="5" width="19" height="14" rx="2.5" stroke="currentColor" fill={on ? 'currentColor' : 'none'} />
      <path
        d="M10.3 10.2a2.4 2.4 0 1 0 0 3.6M17.3 10.2a2.4 2.4 0 1 0 0 3.6"
        stroke={on ? 'black' : 'currentColor'}
        strokeWidth={1.8}
        strokeLinecap="round"
      />
    </svg>
  );
}

function PictureInPictureIcon() {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden="true"
    >
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <rect x="12" y="11" width="7" height="6" rx="1" fill="currentColor" />
    </svg>
  );
}
