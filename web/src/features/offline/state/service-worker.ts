import { locale } from '@lib/i18n';

/**
 * The offline service worker is registered in the signed-in shell after the page's load (and when a save starts).
 * Only for a person who saves lectures does it download the whole app shell (about 300 KB of scripts); for everyone
 * else it keeps what the browser already has, so a phone's first visit does not compete with the video's first
 * segments (sw/service-worker.ts).
 */
let registering: Promise<ServiceWorkerRegistration | undefined> | undefined;

/** Registers `/sw.js` once (after the page has loaded); answers when it is active, or undefined when it cannot be. */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return Promise.resolve(undefined);
  registering ??= new Promise<void>((loaded) => {
    if (document.readyState === 'complete') loaded();
    else window.addEventListener('load', () => loaded(), { once: true });
  })
    .then(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }))
    .then(() => navigator.serviceWorker.ready)
    .catch(() => {
      // No worker (blocked, private mode): the app works online, and offers the MP4 instead of saving.
      registering = undefined;
      return undefined;
    });
  return registering;
}

/**
 * Asks the active worker to keep every shell file, with the messages of the language on screen (the worker keeps
 * no other language's); answers whether it did (a save waits for it).
 */
export function keepWholeShell(registration: ServiceWorkerRegistration): Promise<boolean> {
  const active = registration.active;
  if (!active) return Promise.resolve(false);
  return new Promise((answered) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => answered((event.data as { ok?: boolean } | null)?.ok === true);
    active.postMessage({ type: 'keep-shell', locale }, [channel.port2]);
  });
}

/** Links the web app manifest (installable app), after load so the sign-in page never fetches it. */
export function linkManifest() {
  const link = () => {
    if (document.querySelector('link[rel="manifest"]')) return;
    const element = document.createElement('link');
    element.rel = 'manifest';
    element.href = '/manifest.webmanifest';
    document.head.append(element);
  };
  if (document.readyState === 'complete') link();
  else window.addEventListener('load', link, { once: true });
}
