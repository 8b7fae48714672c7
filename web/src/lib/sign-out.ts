/**
 * What each part of the app forgets when a person's session ends in this tab (Outline's `RootStore.clear()`, as a
 * list): a feature adds its own reset when it first starts, and `endSession()` runs them all without naming any.
 */
type Reset = () => unknown;

const resets = new Set<Reset>();

/** Adds a reset run at every sign-out (the same function twice counts once); answers a function that removes it. */
export function onSignOut(reset: Reset): () => void {
  resets.add(reset);
  return () => resets.delete(reset);
}

/**
 * Runs every registered reset; one that throws or rejects does not stop the others. Answers when the asynchronous
 * ones (a cache deleted, an upload stopped on the server) are done or failed.
 */
export function runSignOutResets(): Promise<void> {
  const pending = [...resets].map((reset) => {
    try {
      return Promise.resolve(reset()).catch(() => {});
    } catch {
      return Promise.resolve();
    }
  });
  return Promise.all(pending).then(() => {});
}
