/**
 * The offline service worker is registered only for a person who saves lectures: when a save starts, or at start
 * when something is saved already. Its install precaches the app shell (about 300 KB of scripts), which on a
 * phone's first visit would compete with the video's first segments and cost data nobody asked for.
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
