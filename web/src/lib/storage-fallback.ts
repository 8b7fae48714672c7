/** A Storage kept in memory for this page only. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

/**
 * Inside an LMS's frame a browser that blocks third-party cookies denies this page localStorage and sessionStorage
 * (reading them throws). The app then keeps what it would have stored in memory for the page's life, instead of
 * failing where it reads a preference. Called once at start, before anything reads storage.
 */
export function keepStorageUsable() {
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    try {
      void window[name].length;
    } catch {
      Object.defineProperty(window, name, { value: memoryStorage(), configurable: true });
    }
  }
}
