import { type PointerEvent, useEffect, useRef } from 'react';
import type { PlayerCommands } from './usePlayerCommands';

/** A double tap on the left or right third of the picture seeks this far, as on YouTube. */
const DOUBLE_TAP_SECONDS = 10;
const DOUBLE_TAP_MS = 300;

/**
 * The picture's pointer: a mouse click plays or pauses. A tap (touch) shows or hides the controls and never
 * pauses; a second tap within 300 ms on the left or right third seeks 10 s back or forward.
 */
export function usePlayerTouch(
  commands: Pick<PlayerCommands, 'togglePlay' | 'seekBy'>,
  controls: { show: () => void; hide: () => void },
  /** Whether the controls show and the video plays now: a lone tap then hides them. */
  hidesOnTap: boolean,
) {
  const lastTap = useRef<{ at: number; x: number } | null>(null);
  const tapTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(tapTimer.current), []);
  return (event: PointerEvent<HTMLElement>) => {
    if (event.pointerType !== 'touch') {
      commands.togglePlay();
      return;
    }
    const rect = event.currentTarget.getBoundingClientRect();
    const x = (event.clientX - rect.left) / rect.width;
    const now = Date.now();
    const previous = lastTap.current;
    if (previous && now - previous.at < DOUBLE_TAP_MS && (x < 1 / 3 || x > 2 / 3)) {
      clearTimeout(tapTimer.current);
      lastTap.current = null;
      commands.seekBy(x < 1 / 3 ? -DOUBLE_TAP_SECONDS : DOUBLE_TAP_SECONDS);
      controls.show();
      return;
    }
    lastTap.current = { at: now, x };
    // Wait out a possible second tap before toggling the controls.
    clearTimeout(tapTimer.current);
    tapTimer.current = setTimeout(() => {
      if (hidesOnTap) controls.hide();
      else controls.show();
    }, DOUBLE_TAP_MS);
  };
}
