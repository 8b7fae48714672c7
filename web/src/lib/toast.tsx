/**
 * The app's toasts: sonner's API (`toast.success/error/info` with its options), but sonner and its Toaster load
 * on the first toast, not with the first page: the sign-in page stays inside its transfer budget, and a toast
 * waits one small request once. `<Toasts />` sits once at the root.
 */
import { type ComponentType, useEffect, useState } from 'react';
import type { ExternalToast, ToasterProps } from 'sonner';
import { TOAST_MS } from './messages';

type Sonner = typeof import('sonner');
type Message = Parameters<Sonner['toast']['success']>[0];

let mountToaster: ((toaster: ComponentType<ToasterProps>, mounted: () => void) => void) | undefined;
/** Set by the mounted <Toasts />: places a phone's next toast clear of the header and the page's title. */
let placeOnPhone: (() => void) | undefined;
let sonner: Promise<Sonner['toast']> | undefined;

function loadSonner() {
  sonner ??= import('sonner').then(
    (module) =>
      new Promise<Sonner['toast']>((resolve) => {
        // Without a mounted <Toasts /> (never in the app) the toast still resolves, it just shows nowhere.
        if (!mountToaster) resolve(module.toast);
        else mountToaster(module.Toaster, () => resolve(module.toast));
      }),
    (failure) => {
      sonner = undefined; // try again on the next toast
      throw failure;
    },
  );
  return sonner;
}

/** When each toast on screen was shown, so a move to another page can clear the ones that belong to the last. */
const shownAt = new Map<string | number, number>();
/** A toast this young announces the move itself ("Login successful! Redirecting…"): it goes along. */
const CARRIED_MS = 1000;

const show =
  (kind: 'success' | 'error' | 'info') =>
  (message: Message, options?: ExternalToast): void => {
    loadSonner()
      .then((toast) => {
        placeOnPhone?.();
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
  if (shownAt.size === 0 || !sonner) return;
  const now = Date.now();
  sonner.then((toast) => {
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
  sonner?.then((toast) => toast.dismiss()).catch(() => {});
}

const PHONE_QUERY = '(max-width: 639px)';
/** The signed-in header's height (AppShell) and the room a toast takes, one or two lines. */
const HEADER_PX = 56;
const TOAST_ROOM_PX = 88;

/**
 * Where a phone's toast starts: just under the header, or just under the page's title (and the row of buttons it
 * sits in) when that is near the top, so it covers neither. Lower on the screen are the controls just pressed.
 */
function phoneToastTop(): number {
  const underHeader = HEADER_PX + 8;
  const title = document.querySelector('main h1');
  if (!title) return underHeader;
  const parent = title.parentElement;
  const row = parent && getComputedStyle(parent).display === 'flex' ? parent : title;
  const { top, bottom } = row.getBoundingClientRect();
  // A title lower down (the sign-in card sits mid-screen) or scrolled away leaves the top free.
  if (top >= underHeader + TOAST_ROOM_PX || bottom <= HEADER_PX) return underHeader;
  return Math.round(bottom + 8);
}
const TABLET_QUERY = '(max-width: 1023px)';
/** Whether the window matches a media query, following rotation and resizing. */
function useMedia(media: string) {
  const [matches, setMatches] = useState(() => window.matchMedia(media).matches);
  useEffect(() => {
    const query = window.matchMedia(media);
    const follow = () => setMatches(query.matches);
    follow();
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [media]);
  return matches;
}

/** Renders sonner's Toaster once the first toast has loaded it. */
export function Toasts() {
  const [toaster, setToaster] = useState<{ Toaster: ComponentType<ToasterProps>; mounted: () => void } | null>(null);
  useEffect(() => {
    mountToaster = (Toaster, mounted) => setToaster({ Toaster, mounted });
    return () => {
      mountToaster = undefined;
    };
  }, []);
  const [top, setTop] = useState(HEADER_PX + 8);
  useEffect(() => {
    placeOnPhone = () => {
      if (window.matchMedia(PHONE_QUERY).matches) setTop(phoneToastTop());
    };
    return () => {
      placeOnPhone = undefined;
    };
  }, []);
  // Runs after the Toaster's own effects, so it has subscribed before the first toast is sent.
  useEffect(() => toaster?.mounted(), [toaster]);
  const phone = useMedia(PHONE_QUERY);
  const tablet = useMedia(TABLET_QUERY);
  if (!toaster) return null;
  // Never over the header, a page's title or the button just pressed: on a phone at the top, under the title
  // (a phone's forms and their buttons fill the screen below it), elsewhere in the bottom-right corner. Phones and
  // tablets show one toast at a time (the newest; older ones time out unseen): a pile of them grew over a form's
  // Save at 768 px.
  return (
    <toaster.Toaster
      position={phone ? 'top-center' : 'bottom-right'}
      offset={{ bottom: 16, right: 16, top }}
      mobileOffset={{ top, left: 8, right: 8 }}
      visibleToasts={tablet ? 1 : 3}
      duration={TOAST_MS}
      richColors
      closeButton
    />
  );
}
