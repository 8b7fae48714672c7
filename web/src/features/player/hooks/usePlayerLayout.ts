import { type Dispatch, type RefObject, useEffect } from 'react';
import type { PlayerAction } from '../state/player-state';

/** Below this player width (its own, not the window's) speed and quality go into the settings menu. */
const COMPACT_BELOW_PX = 560;

/** The player's measured layout: whether it is narrow, and where its seek bar starts (the captions sit above it). */
export function usePlayerLayout(
  containerRef: RefObject<HTMLElement | null>,
  barRef: RefObject<HTMLDivElement | null>,
  dispatch: Dispatch<PlayerAction>,
) {
  // The controls follow the player's own width (a narrow column on a tablet is as tight as a phone).
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) dispatch({ type: 'compact', compact: entry.contentRect.width < COMPACT_BELOW_PX });
    });
    observer.observe(container);
    return () => observer.disconnect();
  }, [containerRef, dispatch]);

  // The bar's height changes with the player's width (compact), the pointer (a taller seek bar on touch) and the
  // font size: measured, not guessed.
  useEffect(() => {
    const bar = barRef.current;
    if (!bar) return;
    const measure = () => {
      const seek = bar.querySelector<HTMLElement>('.player-seek');
      if (seek)
        dispatch({
          type: 'seek-top',
          px: Math.ceil(bar.getBoundingClientRect().bottom - seek.getBoundingClientRect().top),
        });
    };
    const observer = new ResizeObserver(measure);
    observer.observe(bar);
    measure();
    return () => observer.disconnect();
  }, [barRef, dispatch]);
}
