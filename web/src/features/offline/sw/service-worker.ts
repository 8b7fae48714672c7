/**
 * The service worker (served at /sw.js, built by scripts/build-web.ts; docs/offline.md). It:
 * - keeps the app shell (index.html, the hashed scripts and styles, the manifest) under a versioned cache, so the
 *   app's own page opens offline and a new build replaces the old files: all of it for a person who saves lectures,
 *   otherwise index.html and only what the browser has already downloaded (and downloads next);
 * - answers a lecture's HLS files from the person's offline cache (`classroom-offline-<user id>`), with the signed
 *   token folder taken out of the URL, so a fresh token still finds the saved copy and the same player plays it;
 * - falls back to that cache for the person's own JSON (who they are, their class, its lectures, their notes) when
 *   the network fails, and keeps those answers fresh only once the person has saved something for offline;
 * - falls back to the saved copy of a lecture's captions and slide strip (list and thumbnails) when the network fails.
 * It never caches an answer under another person's cache: the cache is named by the bearer token's subject.
 */
import { normalisedMediaPath, OFFLINE_PREFIX, SHELL_PREFIX, SLIDES_PATH } from '../state/cache-keys';

declare const SHELL_FILES: string[];
declare const SHELL_VERSION: string;

type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & { request: Request; respondWith(response: Promise<Response> | Response): void };
const worker = self as unknown as {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent & ExtendableEvent) => void): void;
};

const SHELL_CACHE = `${SHELL_PREFIX}${SHELL_VERSION}`;

/** Whether someone in this browser has lectures saved for offline (their cache exists). */
const savesLectures = async () => (await caches.keys()).some((name) => name.startsWith(OFFLINE_PREFIX));

/**
 * Whether anyone in this browser has saved lectures (undefined while it is being found out): until then the worker
 * leaves video, caption and JSON requests to the browser, as if it were not there.
 */
let savedHere: boolean | undefined;
void savesLectures().then((saves) => {
  savedHere ??= saves;
});

/**
 * The messages of each language (`/assets/msg-<language>-<first|all>-<version>.js`, lib/i18n.ts) are shell files
 * too, but a person reads one language: they are never all precached (six languages' words for one's use). Each is
 * kept as it comes instead, cache-first like any hashed asset (the fetch handler below), and a save keeps the
 * language on screen (the page names it in its `keep-shell` message), so the app still opens offline in it.
 */
const MESSAGES = /^\/assets\/msg-/;
const APP_FILES = SHELL_FILES.filter((file) => !MESSAGES.test(file));
/** The message files of one language, as its page names it (`pt-BR`); none for a name no file has. */
const messagesOf = (locale: unknown) =>
  typeof locale === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(locale)
    ? SHELL_FILES.filter(
        (file) => file.startsWith(`/assets/msg-${locale}-first-`) || file.startsWith(`/assets/msg-${locale}-all-`),
      )
    : [];

/**
 * The languages whose messages a shell cache holds, this build's or the last one's (before `activate` deletes it):
 * a new build's worker keeps the new messages of the languages its people read, without being told again.
 */
async function keptLocales(): Promise<string[]> {
  const locales = new Set<string>();
  for (const name of await caches.keys()) {
    if (!name.startsWith(SHELL_PREFIX)) continue;
    for (const request of await (await caches.open(name)).keys()) {
      const locale = /^\/assets\/msg-(.+?)-(?:first|all)-[^-/]+\.js$/.exec(new URL(request.url).pathname)?.[1];
      if (locale) locales.add(locale);
    }
  }
  return [...locales];
}

/**
 * Every shell file but the messages, downloaded once, with the messages of the languages kept so far, of the
 * language on screen (when the page said which) and those the browser already has: what a saved lecture needs to
 * open and play offline.
 */
const precacheWholeShell = async (locale?: unknown) => {
  const locales = [...(await keptLocales()), locale];
  const cache = await caches.open(SHELL_CACHE);
  await cache.addAll([...new Set([...APP_FILES, ...locales.flatMap(messagesOf)])]);
  await keepShellAlreadyDownloaded();
};

/**
 * The shell files this browser already has in its HTTP cache, taken without a request: everyone gets the app's own
 * offline page for nothing, and a phone's first visit does not download 300 KB it did not ask for. Of the messages,
 * only the language the person has read is in that cache: the others stay on the server.
 */
async function keepShellAlreadyDownloaded() {
  const cache = await caches.open(SHELL_CACHE);
  await Promise.all(
    SHELL_FILES.map(async (file) => {
      if (await cache.match(file)) return;
      const answer = await fetch(file, { cache: 'only-if-cached', mode: 'same-origin' }).catch(() => undefined);
      if (answer?.ok) await cache.put(file, answer);
    }),
  );
}

/**
 * A save's last step (state/downloads.ts): the whole shell is kept before the lecture counts as saved, so the app
 * itself opens offline too, even when the page was not yet the worker's while it saved.
 */
worker.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type !== 'keep-shell') return;
  savedHere = true;
  const reply = event.ports[0];
  event.waitUntil(
    precacheWholeShell((event.data as { locale?: unknown }).locale).then(
      () => reply?.postMessage({ ok: true }),
      () => reply?.postMessage({ ok: false }),
    ),
  );
});

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.add('/index.html'))
      .then(savesLectures)
      .then((saves) => (saves ? precacheWholeShell() : keepShellAlreadyDownloaded()))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => worker.clients.claim()),
  );
});

/** The person's own answers the app may need offline (GET only). */
const PERSONAL_JSON = [
  /^\/api\/users$/,
  /^\/api\/courses$/,
  /^\/api\/courses\/[\w-]+$/,
  /^\/api\/lectures\/course\/[\w-]+$/,
  /^\/api\/lectures\/[\w-]+$/,
  /^\/api\/lectures\/[\w-]+\/questions$/,
  /^\/api\/enrollments\/[\w-]+\/notes$/,
];
const CAPTION_FILE = /^\/api\/lectures\/[\w-]+\/captions\/[\w-]+\.vtt$/;
/** `GET /api/lectures/{id}/offline`, the first request of a save (features/offline/state/downloads.ts). */
const OFFLINE_MANIFEST = /^\/api\/lectures\/[\w-]+\/offline$/;

/** The user id a bearer token names (its `sub`): only to pick whose cache; the server checks the signature. */
function subjectOf(authorization: string | null): string | undefined {
  const payload = authorization?.match(/^Bearer [\w-]+\.([\w-]+)\.[\w-]+$/)?.[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return typeof claims.sub === 'string' && /^[\w-]{1,64}$/.test(claims.sub) ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

/** A saved file in any offline cache (only the signed-in person's exists: the app deletes the others). */
async function savedCopy(path: string): Promise<Response | undefined> {
  for (const name of await caches.keys()) {
    if (!name.startsWith(OFFLINE_PREFIX)) continue;
    const hit = await (await caches.open(name)).match(path);
    if (hit) return hit;
  }
  return undefined;
}

/** Network first; a failed network answers from the saved copy, else fails as it would have. */
async function networkThenSaved(request: Request, key: string, keepIn?: string): Promise<Response> {
  try {
    const answer = await fetch(request);
    if (keepIn && answer.ok && (await caches.has(keepIn))) {
      const copy = answer.clone();
      void caches.open(keepIn).then((cache) => cache.put(key, copy));
    }
    return answer;
  } catch (error) {
    // `caches.match` with a cache name, not `caches.open`: looking must not make an empty cache for someone.
    const saved = keepIn ? await caches.match(key, { cacheName: keepIn }) : await savedCopy(key);
    if (saved) return saved;
    throw error;
  }
}

/**
 * A master playlist: the network's (every quality) when there is a network, else the saved one-rung copy. With a
 * saved copy the browser's HTTP cache is skipped (`no-cache` revalidates, and fails without a network): offline, a
 * cached full master (it may be kept 5 minutes) would send the player to a quality that was not saved.
 */
async function masterPlaylist(request: Request, key: string): Promise<Response> {
  const saved = await savedCopy(key);
  if (!saved) return fetch(request);
  try {
    return await fetch(request, { cache: 'no-cache' });
  } catch {
    return saved;
  }
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  const path = url.pathname;

  if (path.startsWith('/assets/')) {
    // Kept as it comes: the screens a person has opened open offline too, and so do the messages of the language
    // they read (never precached for every language: see MESSAGES), the first time the page asks for them.
    event.respondWith(
      caches.match(path, { cacheName: SHELL_CACHE }).then(
        (hit) =>
          hit ??
          fetch(request).then((answer) => {
            if (answer.ok && SHELL_FILES.includes(path)) {
              const copy = answer.clone();
              event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.put(path, copy)));
            }
            return answer;
          }),
      ),
    );
    return;
  }
  // A save starts by asking for the lecture's offline manifest: the whole shell comes along, so it plays offline
  // (the language's messages come with the save's `keep-shell` message, which names it).
  if (OFFLINE_MANIFEST.test(path)) {
    savedHere = true;
    event.waitUntil(precacheWholeShell().catch(() => {}));
  }
  // Nothing saved here: a video's files and the person's JSON go to the network untouched (only pages and code are
  // the worker's then).
  if (savedHere === false && request.mode !== 'navigate') return;
  const media = normalisedMediaPath(path);
  if (media) {
    // The master is asked of the network first (online, every quality); offline it is the saved one-rung master.
    if (media.endsWith('/master.m3u8')) event.respondWith(masterPlaylist(request, media));
    else event.respondWith(savedCopy(media).then((hit) => hit ?? fetch(request)));
    return;
  }
  if (PERSONAL_JSON.some((pattern) => pattern.test(path))) {
    const subject = subjectOf(request.headers.get('authorization'));
    if (subject) event.respondWith(networkThenSaved(request, `${path}${url.search}`, `${OFFLINE_PREFIX}${subject}`));
    return;
  }
  // Captions and the slide strip: the network first, then the copy saved with the lecture.
  if (CAPTION_FILE.test(path) || SLIDES_PATH.test(path)) {
    event.respondWith(networkThenSaved(request, path));
    return;
  }
  if (request.mode === 'navigate' && !path.startsWith('/api/') && !path.startsWith('/media/')) {
    // A page of the app: the server's index.html (never cached by the browser), else the precached one.
    event.respondWith(
      fetch(request).catch(async (error) => {
        const shell = await caches.match('/index.html', { cacheName: SHELL_CACHE });
        if (shell) return shell;
        throw error;
      }),
    );
  }
});
