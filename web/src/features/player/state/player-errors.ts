/**
 * Why playback stopped, made where it happened (never parsed back out of a message): `title` is the spec's label,
 * `detail` says what happened in plain words.
 */
export type PlayerError = {
  kind: 'network' | 'offline' | 'media' | 'playback' | 'start' | 'unsupported' | 'not-loaded' | 'native' | 'fullscreen';
  title: string;
  detail: string;
};

/** Every error the player shows, by kind. */
export const PLAYER_ERRORS: { readonly [Kind in PlayerError['kind']]: PlayerError & { kind: Kind } } = {
  // hls.js loads again every few seconds, and at once when the browser is back online.
  network: { kind: 'network', title: 'Network Error', detail: 'The connection dropped. Trying again…' },
  // The device has no connection and the lecture is not saved on it (a saved one never reaches the network).
  offline: {
    kind: 'offline',
    title: 'Network Error',
    detail: "You're offline – this lecture isn't saved on this device. Connect to the internet to watch it.",
  },
  // hls.js recovers by itself (recoverMediaError).
  media: { kind: 'media', title: 'Media Error', detail: 'This video could not be decoded here. Trying to recover…' },
  // hls.js gave up: the player is built again.
  playback: { kind: 'playback', title: 'Playback Error', detail: 'The video stopped unexpectedly.' },
  start: { kind: 'start', title: 'Playback Error', detail: 'The video could not start. Press Play to try again.' },
  unsupported: {
    kind: 'unsupported',
    title: 'Initialization Error',
    detail: 'This browser cannot play these videos. Please use a current browser.',
  },
  'not-loaded': {
    kind: 'not-loaded',
    title: 'Initialization Error',
    detail: 'The player could not load. Check the connection, then press Retry.',
  },
  // The browser's own HLS (an older iPhone) reports only the element's `error` event.
  native: {
    kind: 'native',
    title: 'Native Player Error',
    detail: 'The video could not be played. Check the connection, then press Retry.',
  },
  fullscreen: { kind: 'fullscreen', title: 'Fullscreen Error', detail: 'This browser did not allow full screen here.' },
};

/**
 * A failure to reach the server, in the words that fit: offline (the browser says it has no connection) is not a
 * dropped connection, and Retry or "check the connection" would not help.
 */
export function connectionError(fallback: PlayerError): PlayerError {
  return typeof navigator !== 'undefined' && navigator.onLine === false ? PLAYER_ERRORS.offline : fallback;
}
