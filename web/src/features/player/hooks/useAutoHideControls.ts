import { type Dispatch, type RefObject, useCallback, useEffect, useMemo, useRef } from 'react';
import type { PlayerAction } from '../state/player-state';

const CONTROLS_HIDE_MS = 3000;

/** Shows the controls, and hides them again 3 s later if the video is playing by then. */
export function useAutoHideControls(videoRef: RefObject<HTMLVideoElement | null>, dispatch: Dispatch<PlayerAction>) {
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const show = useCallback(() => {
    dispatch({ type: 'controls', visible: true });
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => {
      if (!videoRef.current?.paused) dispatch({ type: 'controls', visible: false });
    }, CONTROLS_HIDE_MS);
  }, [videoRef, dispatch]);
  const hide = useCallback(() => {
    clearTimeout(hideTimer.current);
    dispatch({ type: 'controls', visible: false });
  }, [dispatch]);
  useEffect(() => () => clearTimeout(hideTimer.current), []);
  return useMemo(() => ({ show, hide }), [show, hide]);
}
