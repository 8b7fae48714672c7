import type { MessageKey } from '@lib/i18n';

/**
 * Why playback stopped, made where it happened (never parsed back out of a message): `title` is the spec's label,
 * `detail` says what happened in plain words. Both are message keys, read with t() where they show.
 */
export type PlayerError = {
  kind: 'network' | 'offline' | 'media' | 'playback' | 'start' | 'unsupported' | 'not-loaded' | 'native' | 'fullscreen';
  title: MessageKey;
  detail: MessageKey;
};

/** Every error the player shows, by kind. */
export const PLAYER_ERRORS: { readonly [Kind in PlayerError['kind']]: PlayerError & { kind: Kind } } = {
  // hls.js loads again every few seconds, and at once when the browser is back online.
  network: { kind: 'network', title: 'player.error.network.title', detail: 'player.error.network.detail' },
  // The device has no connection and the lecture is not saved on it (a saved one never reaches the network).
  offline: {
    kind: 'offline',
    title: 'player.error.network.title',
    detail: 'player.error.offline.detail',
  },
  // hls.js recovers by itself (recoverMediaError).
  media: { kind: 'media', title: 'player.error.media.title', detail: 'player.error.media.detail' },
  // hls.js gave up: the player is built again.
  playback: { kind: 'playback', title: 'player.error.playback.title', detail: 'player.error.playback.detail' },
  start: { kind: 'start', title: 'player.error.playback.title', detail: 'player.error.start.detail' },
  unsupported: {
    kind: 'unsupported',
    title: 'player.error.init.title',
    detail: 'player.error.unsupported.detail',
  },
  'not-loaded': {
    kind: 'not-loaded',
    title: 'player.error.init.title',
    detail: 'player.error.notLoaded.detail',
  },
  // The browser's own HLS (an older iPhone) reports only the element's `error` event.
  native: {
    kind: 'native',
    title: 'player.error.native.title',
    detail: 'player.error.native.detail',
  },
  fullscreen: { kind: 'fullscreen', title: 'player.error.fullscreen.title', detail: 'player.error.fullscreen.detail' },
};

/**
 * A failure to reach the server, in the words that fit: offline (the browser says it has no connection) is not a
 * dropped connection, and Retry or "check the connection" would not help.
 */
export function connectionError(fallback: PlayerError): PlayerError {
  return typeof navigator !== 'undefined' && navigator.onLine === false ? PLAYER_ERRORS.offline : fallback;
}
