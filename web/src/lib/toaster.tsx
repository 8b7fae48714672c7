/**
 * sonner and where its toasts sit on screen: loaded with the first toast (./toast.tsx), so the sign-in page carries
 * none of it (bench:web's budget).
 */

import { useEffect, useState } from 'react';
import { Toaster } from 'sonner';
import { direction, t } from './i18n';
import { TOAST_MS } from './messages';

export { toast } from 'sonner';

const PHONE_QUERY = '(max-width: 639px)';
const TABLET_QUERY = '(max-width: 1023px)';
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

/** Set by the mounted <AppToaster />: moves a phone's toasts to where the next one should start. */
let setTop: ((top: number) => void) | undefined;

/** Places a phone's next toast clear of the header and the page's title; called before each toast. */
export function placeOnPhone() {
  if (window.matchMedia(PHONE_QUERY).matches) setTop?.(phoneToastTop());
}

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

/** sonner's Toaster as the app places it; <Toasts /> renders it once the first toast has loaded this module. */
export function AppToaster() {
  const [top, setTopState] = useState(HEADER_PX + 8);
  useEffect(() => {
    setTop = setTopState;
    return () => {
      setTop = undefined;
    };
  }, []);
  const phone = useMedia(PHONE_QUERY);
  const tablet = useMedia(TABLET_QUERY);
  // Never over the header, a page's title or the button just pressed: on a phone at the top, under the title
  // (a phone's forms and their buttons fill the screen below it), elsewhere in the bottom-right corner. Phones and
  // tablets show one toast at a time (the newest; older ones time out unseen): a pile of them grew over a form's
  // Save at 768 px.
  return (
    <Toaster
      position={phone ? 'top-center' : direction === 'rtl' ? 'bottom-left' : 'bottom-right'}
      dir={direction}
      containerAriaLabel={t('common.notifications')}
      toastOptions={{ closeButtonAriaLabel: t('common.closeMessage') }}
      offset={{ bottom: 16, right: 16, left: 16, top }}
      mobileOffset={{ top, left: 8, right: 8 }}
      visibleToasts={tablet ? 1 : 3}
      duration={TOAST_MS}
      richColors
      closeButton
    />
  );
}
