import type {
  FragmentLoaderConstructor,
  HlsConfig,
  Loader,
  LoaderCallbacks,
  LoaderConfiguration,
  LoaderContext,
  PlaylistLoaderConstructor,
} from 'hls.js';
import { wantsBearer } from '../state/media-bearer';

/** A request made before hls.js was there, as hls.js's loaders report one. */
type Early = { start: number; first: number; end: number; data: string | ArrayBuffer };
type LoaderClass = new (config: HlsConfig) => Loader<LoaderContext>;

/** A request made early gives up after this long; hls.js then makes it itself, with its own retries. */
const EARLY_LIMIT_MS = 20_000;

/**
 * The first requests of a video, made while hls.js (the player's largest download) is still on its way and handed to
 * it when it arrives: the master playlist at once (it is loaded before Play anyway), and when Play is pressed first,
 * the first level's playlist, its init segment and its first segment. On a slow network the first frame then waits
 * for the longer of hls.js and the video's first requests, not for the two in turn (bench:web's 3G).
 *
 * Only what hls.js is sure to ask for first is asked for early: the lowest rung (its start level) of a finished
 * video played from the start. A resume point, a remembered quality or a video still being processed gets the master
 * playlist early and nothing more; anything hls.js does not ask for is dropped with the player.
 */
export function warmStart(src: string, video: HTMLVideoElement, fromTheStart: boolean, token?: string | null) {
  const controllers = new Set<AbortController>();
  const loads = new Map<string, Promise<Early | null>>();
  /** Set when hls.js is there: from then on it makes its own requests. */
  let arrived = false;

  const request = (url: string, type: 'text' | 'arraybuffer', headers?: HeadersInit) => {
    const key = new URL(url, window.location.href).href;
    const existing = loads.get(key);
    if (existing) return existing;
    const controller = new AbortController();
    controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), EARLY_LIMIT_MS);
    const start = performance.now();
    const load = fetch(key, { signal: controller.signal, credentials: 'same-origin', headers })
      .then(async (response) => {
        if (!response.ok) return null;
        const first = performance.now();
        const data = type === 'text' ? await response.text() : await response.arrayBuffer();
        return { start, first, end: performance.now(), data };
      })
      .catch(() => null)
      .finally(() => {
        clearTimeout(timer);
        controllers.delete(controller);
      });
    loads.set(key, load);
    return load;
  };

  const masterUrl = new URL(src, window.location.href).href;
  // In an LMS's frame a browser may keep no cookie: the master playlist's session check reads the bearer, as
  // hls.js's own request does (media-bearer.ts); rung playlists and segments carry their signed folder.
  const bearer = token && wantsBearer(masterUrl, window.location.href, Date.now());
  const master = request(masterUrl, 'text', bearer ? { authorization: `Bearer ${token}` } : undefined);

  const onPlay = async () => {
    if (arrived || !fromTheStart) return;
    const manifest = (await master)?.data;
    const levelUrl = typeof manifest === 'string' ? startLevelUrl(manifest, masterUrl) : null;
    if (!levelUrl || arrived) return;
    const playlist = (await request(levelUrl, 'text'))?.data;
    const first = typeof playlist === 'string' ? firstSegment(playlist, levelUrl) : null;
    if (!first || arrived) return;
    if (first.init) void request(first.init, 'arraybuffer');
    void request(first.segment, 'arraybuffer');
  };
  if (video.paused) video.addEventListener('play', onPlay, { once: true });
  else void onPlay();

  return {
    /** hls.js is here: nothing more is asked for early. */
    arrived() {
      arrived = true;
      video.removeEventListener('play', onPlay);
    },
    /** The loaders hls.js uses for playlists and segments: an early answer for a URL it asks for, else `Base`'s. */
    loaders(Base: LoaderClass): Pick<HlsConfig, 'pLoader' | 'fLoader'> {
      const take = (url: string) => {
        const key = new URL(url, window.location.href).href;
        const load = loads.get(key);
        loads.delete(key);
        return load;
      };
      class WarmLoader extends Base {
        private waiting: LoaderCallbacks<LoaderContext> | null = null;
        load(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>) {
          // A byte range is asked for with rangeEnd (0 or none: the whole file), as hls.js's own loaders read it.
          const early = context.rangeEnd ? undefined : take(context.url);
          if (!early) {
            super.load(context, config, callbacks);
            return;
          }
          this.waiting = callbacks;
          this.context = context;
          void early.then((answer) => {
            if (this.waiting !== callbacks) return; // aborted or destroyed meanwhile
            this.waiting = null;
            const wanted = context.responseType === 'arraybuffer' ? 'object' : 'string';
            if (!answer || typeof answer.data !== wanted) {
              super.load(context, config, callbacks);
              return;
            }
            const { stats } = this;
            stats.loading.start = answer.start;
            stats.loading.first = answer.first;
            stats.loading.end = answer.end;
            stats.loaded = stats.total = typeof answer.data === 'string' ? answer.data.length : answer.data.byteLength;
            callbacks.onSuccess({ url: context.url, data: answer.data, code: 200 }, stats, context, null);
          });
        }
        abort() {
          const callbacks = this.waiting;
          if (!callbacks) {
            super.abort();
            return;
          }
          this.waiting = null;
          this.stats.aborted = true;
          callbacks.onAbort?.(this.stats, this.context as LoaderContext, null);
        }
        destroy() {
          this.waiting = null;
          super.destroy();
        }
      }
      // One class for both: it answers whatever context it is given, a playlist's or a segment's.
      return {
        pLoader: WarmLoader as unknown as PlaylistLoaderConstructor,
        fLoader: WarmLoader as unknown as FragmentLoaderConstructor,
      };
    },
    /** The player goes: what was asked for early and not taken stops. */
    cancel() {
      video.removeEventListener('play', onPlay);
      for (const controller of controllers) controller.abort();
      loads.clear();
    },
  };
}

/**
 * The playlist of the level hls.js starts on (`startLevel: 0`): it sorts levels by height, then by bandwidth. Null
 * when that is not certain: a separate audio rendition, or a variant without its RESOLUTION.
 */
function startLevelUrl(manifest: string, masterUrl: string): string | null {
  if (/^#EXT-X-MEDIA:.*TYPE=AUDIO.*URI=/m.test(manifest)) return null;
  const lines = manifest.split(/\r?\n/);
  const variants: { height: number; bandwidth: number; uri: string }[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (!line.startsWith('#EXT-X-STREAM-INF:')) continue;
    const height = Number(/RESOLUTION=\d+x(\d+)/.exec(line)?.[1]);
    const bandwidth = Number(/[:,]BANDWIDTH=(\d+)/.exec(line)?.[1]);
    const uri = lines.slice(index + 1).find((next) => next.trim() !== '' && !next.startsWith('#'));
    if (!height || !bandwidth || !uri) return null;
    variants.push({ height, bandwidth, uri: uri.trim() });
  }
  variants.sort((a, b) => a.height - b.height || a.bandwidth - b.bandwidth);
  const [lowest, next] = variants;
  if (!lowest || (next && next.height === lowest.height && next.bandwidth === lowest.bandwidth)) return null;
  return new URL(lowest.uri, masterUrl).href;
}

/** A finished video's init segment and first segment, which hls.js loads first when playing from 0. */
function firstSegment(playlist: string, playlistUrl: string): { init: string | null; segment: string } | null {
  // Still being processed (no end yet): hls.js may start elsewhere than at the first segment.
  if (!/^#EXT-X-ENDLIST/m.test(playlist) || /^#EXT-X-BYTERANGE/m.test(playlist)) return null;
  const map = /^#EXT-X-MAP:.*URI="([^"]+)"/m.exec(playlist);
  if (map && /BYTERANGE=/.test(map[0])) return null;
  const lines = playlist.split(/\r?\n/);
  const extinf = lines.findIndex((line) => line.startsWith('#EXTINF:'));
  const segment = lines.slice(extinf + 1).find((line) => line.trim() !== '' && !line.startsWith('#'));
  if (extinf < 0 || !segment) return null;
  return {
    init: map?.[1] ? new URL(map[1], playlistUrl).href : null,
    segment: new URL(segment.trim(), playlistUrl).href,
  };
}
