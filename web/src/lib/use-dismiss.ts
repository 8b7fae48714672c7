import { type RefObject, useEffect, useRef } from 'react';

/**
 * Closes a popup (a menu) while it is open: on Escape (`'escape'`), on a pointer press outside every element of
 * `inside` (`'outside'`). `onKey` sees the other keys (a menu's arrows and Tab).
 */
export function useDismiss(
  open: boolean,
  inside: RefObject<HTMLElement | null>[],
  onDismiss: (reason: 'escape' | 'outside') => void,
  onKey?: (event: KeyboardEvent) => void,
) {
  const latest = useRef({ inside, onDismiss, onKey });
  latest.current = { inside, onDismiss, onKey };
  useEffect(() => {
    if (!open) return;
    const keydown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        latest.current.onDismiss('escape');
      } else latest.current.onKey?.(event);
    };
    const pointerdown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!latest.current.inside.some((ref) => ref.current?.contains(target))) latest.current.onDismiss('outside');
    };
    document.addEventListener('keydown', keydown, true);
    document.addEventListener('pointerdown', pointerdown, true);
    return () => {
      document.removeEventListener('keydown', keydown, true);
      document.removeEventListener('pointerdown', pointerdown, true);
    };
  }, [open]);
}
