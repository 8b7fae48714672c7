/** Bun's own fetch, kept before happy-dom replaces the globals: for test set-up calls that need Set-Cookie. */
export const nativeFetch = globalThis.fetch;
