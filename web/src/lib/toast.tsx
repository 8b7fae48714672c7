/**
 * The app's toasts: sonner's API (`toast.success/error/info` with its options), but sonner and its Toaster
 * (./toaster.tsx) load on the first toast, not with the first page: the sign-in page stays inside its transfer
 * budget, and a toast waits one small request once. `<Toasts />` sits once at the root.
 */
import { type ComponentType, useEffect, useState } from 'react';
import type { ExternalToast } from 'sonner';

type Toaster = typeof import('./toaster');
type Message = Parameters<Toaster['toast']['success']>[0];

let mountToaster: ((toaster: ComponentType, mounted: () => void) => void) | undefined;
let toaster: Promise<Toaster> | undefined;

function loadToaster() {
  toaster ??= import('./toaster').then(
    (module) =>
      new Promise<Toaster>((resolve) => {
        // Without a mounted <Toasts /> (never in the app) the toast still resolves, it just shows nowhere.
        if (!mountToaster) resolve(module);
        else mountToaster(module.AppToaster, () => resolve(module));
      }),
    (failure) => {
      toaster = undefined; // try again on the next toast
      throw failure;
    },
  );
  return toaster;
}

/** When each toast on screen was shown, so a move to another page can clear the ones that belong to the last. */
const shownAt = new Map<string | number, number>();
/** A toast this young announces the move itself ("Login successful! Redirecting…"): it goes along. */
const CARRIED_MS = 1000;

const show =
  (kind: 'success' | 'error' | 'info') =>
  (message: Message, options?: ExternalToast): void => {
    loadToaster()
      .then(({ toast, placeOnPhone }) => {
        placeOnPhone();
        const id = toast[kind](message, {
          ...options,
          onDismiss: (t) => {
            shownAt.delete(t.id);
            options?.onDismiss?.(t);
          },
          onAutoClose: (t) => {
            shownAt.delete(t.id);
            options?.onAutoClose?.(t);
          },
        });
        shownAt.set(id, Date.now());
      })
      .catch(() => {
        // The toast library could not load (offline): the screen itself still shows the state.
      });
  };

export const toast = { success: show('success'), error: show('error'), info: show('info') };

/** On a move to another page: the last page's toasts go, except those shown just before the move (its reason). */
export function dismissToastsOfLastPage() {
  if (shownAt.size === 0 || !toaster) return;
  const now = Date.now();
  toaster.then(({ toast }) => {
    for (const [id, at] of shownAt) {
      if (now - at > CARRIED_MS) {
        toast.dismiss(id);
        shownAt.delete(id);
      }
    }
  });
}

/**
 * Sign-out and sign-in: every toast on screen goes, whoever it was for (a toast can name a class or a lecture, and
 * "Logged out successfully" is not for the next person who signs in).
 */
export function dismissAllToasts() {
  shownAt.clear();
  toaster?.then(({ toast }) => toast.dismiss()).catch(() => {});
}

/** Renders the Toaster once the first toast has loaded it. */
export function Toasts() {
  const [loaded, setLoaded] = useState<{ Toaster: ComponentType; mounted: () => void } | null>(null);
  useEffect(() => {
    mountToaster = (Toaster, mounted) => setLoaded({ Toaster, mounted });
    return () => {
      mountToaster = undefined;
    };
  }, []);
  // Runs after the Toaster's own effects, so it has subscribed before the first toast is sent.
  useEffect(() => loaded?.mounted(), [loaded]);
  return loaded && <loaded.Toaster />;
}
