import { formatClock } from '@lib/format';
import { direction, t } from '@lib/i18n';
import { seekRequestAtom, useCurrentMark } from '@lib/playback';
import { useSetAtom } from 'jotai';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { type Slide, slideName } from '../api/slides';

// The strip runs the way the language reads: right to left in Arabic, so there ← goes on to the next slide.
const KEYS_BACK = direction === 'rtl' ? ['ArrowRight', 'ArrowUp'] : ['ArrowLeft', 'ArrowUp'];
const KEYS_ON = direction === 'rtl' ? ['ArrowLeft', 'ArrowDown'] : ['ArrowRight', 'ArrowDown'];

/**
 * The slide strip: a row of thumbnails (a list of buttons) that take the player to each slide. The slide on screen
 * is marked from the player's clock and scrolled into sight within the strip only (the page and focus stay put).
 * One button is a Tab stop; the arrow keys, Home and End move along the strip, Enter or a tap jumps.
 */
export function SlideStrip({ slides, labelledBy }: { slides: Slide[]; labelledBy?: string }) {
  const seek = useSetAtom(seekRequestAtom);
  const current = useCurrentMark(slides);
  // The button keyboard focus is on while it moves along the strip; else the Tab stop follows the slide playing.
  const [active, setActive] = useState<number | null>(null);
  const strip = useRef<HTMLOListElement>(null);
  const tabStop = active ?? Math.max(current, 0);

  useEffect(() => {
    const box = strip.current;
    const item = box?.children[current] as HTMLElement | undefined;
    if (!box || !item || active !== null) return;
    // Measured on screen, so it holds right to left too (where scrollLeft counts down from 0).
    const shown = box.getBoundingClientRect();
    const at = item.getBoundingClientRect();
    if (at.left >= shown.left && at.right <= shown.right) return;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const shift = at.left + at.width / 2 - (shown.left + shown.width / 2);
    box.scrollTo({ left: box.scrollLeft + shift, behavior: reduce ? 'auto' : 'smooth' });
  }, [current, active]);

  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    const from = active ?? tabStop;
    const to = KEYS_ON.includes(event.key)
      ? Math.min(from + 1, slides.length - 1)
      : KEYS_BACK.includes(event.key)
        ? Math.max(from - 1, 0)
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? slides.length - 1
            : -1;
    if (to < 0) return;
    event.preventDefault();
    setActive(to);
    strip.current?.querySelectorAll<HTMLButtonElement>('button')[to]?.focus({ preventScroll: false });
  };

  return (
    <ol
      ref={strip}
      aria-labelledby={labelledBy}
      aria-label={labelledBy ? undefined : t('slides.title')}
      className="relative flex snap-x scroll-px-2 gap-2 overflow-x-auto p-2"
      data-testid="slide-strip"
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setActive(null);
      }}
    >
      {slides.map((slide, index) => (
        <li key={slide.thumbnail} className="w-36 shrink-0 snap-start sm:w-40">
          <button
            type="button"
            tabIndex={index === tabStop ? 0 : -1}
            // Named by its words and time (the thumbnail and the visible line say the same to the eye).
            aria-label={slideName(slide, index + 1)}
            aria-current={index === current ? 'true' : undefined}
            onFocus={() => setActive(index)}
            onClick={() => seek({ seconds: slide.seconds, at: Date.now() })}
            className={`flex w-full flex-col gap-1 rounded-lg p-1 text-start transition-colors ${
              index === current ? 'bg-indigo-50 ring-2 ring-indigo-500' : 'hover:bg-slate-50'
            }`}
          >
            <span className="block aspect-video w-full overflow-hidden rounded-md bg-slate-200 ring-1 ring-slate-200">
              <img
                src={slide.thumbnail}
                alt=""
                loading="lazy"
                decoding="async"
                width={320}
                height={180}
                className="h-full w-full object-cover"
              />
            </span>
            <span aria-hidden="true" className="flex items-baseline gap-1.5 px-0.5 text-xs">
              <span className="shrink-0 font-mono text-indigo-700 tabular-nums">{formatClock(slide.seconds)}</span>
              <span className="truncate text-slate-700" translate="no" dir="auto">
                {slide.title ?? ''}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
