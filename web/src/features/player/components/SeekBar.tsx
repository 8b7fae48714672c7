import { formatClock } from '@lib/format';
import { t } from '@lib/i18n';
import type { PlayerMark } from '@lib/playback';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { visibleTicks } from '../state/marks';

/**
 * The seek bar: a slider reachable by Tab (the arrows seek, handled by the player like everywhere in it), clicked or
 * dragged anywhere to seek, with the buffered range, and ticks for the lecture's chapters and slides.
 */
export function SeekBar({
  current,
  duration,
  buffered,
  chapters,
  slides,
  chapter,
  onSeek,
}: {
  current: number;
  duration: number;
  buffered: number;
  /** In time order, within the duration. */
  chapters: PlayerMark[];
  slides: PlayerMark[];
  /** The chapter playing now, read with the time. */
  chapter: PlayerMark | null;
  /** A share of the duration, 0 to 1. */
  onSeek: (share: number) => void;
}) {
  const percent = duration ? (current / duration) * 100 : 0;
  const bufferedPercent = duration ? (buffered / duration) * 100 : 0;
  const seekFromPointer = (event: PointerEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    onSeek(Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width)));
  };
  const [ref, width] = useWidth(chapters.length + slides.length > 0);
  const ticks = visibleTicks(chapters, slides, duration, width);
  return (
    <div
      ref={ref}
      className="player-seek relative flex cursor-pointer touch-none items-center"
      role="slider"
      tabIndex={0}
      aria-label={t('player.seek')}
      aria-valuemin={0}
      aria-valuemax={Math.round(duration) || 0}
      aria-valuenow={Math.round(current)}
      aria-valuetext={
        chapter
          ? t('player.seekValueChapter', {
              current: formatClock(current),
              duration: formatClock(duration),
              chapter: chapter.label,
            })
          : t('player.seekValue', { current: formatClock(current), duration: formatClock(duration) })
      }
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
      {ticks.length > 0 && (
        // Slides: thin dark cuts in the track; chapters: taller light ticks across it.
        <div className="pointer-events-none absolute inset-0" aria-hidden="true" data-testid="seek-marks">
          {ticks.map((mark) => (
            <span
              key={`${mark.kind} ${mark.seconds} ${mark.label}`}
              data-kind={mark.kind}
              className={`absolute top-1/2 -translate-x-1/2 -translate-y-1/2 ${
                mark.kind === 'chapter' ? 'h-2.5 w-0.5 rounded-full bg-white/90' : 'h-1 w-px bg-black/60'
              }`}
              style={{ left: `${(mark.seconds / duration) * 100}%` }}
            />
          ))}
        </div>
      )}
      <div
        className="absolute top-1/2 size-3 -translate-x-1/2 -translate-y-1/2 rounded-full bg-white shadow"
        style={{ left: `${percent}%` }}
      />
    </div>
  );
}

/** The element's width, followed while `watch` (there are marks to space out). */
function useWidth(watch: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element || !watch) return;
    const measure = () => setWidth(element.getBoundingClientRect().width);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => observer.disconnect();
  }, [watch]);
  return [ref, width] as const;
}
