/** How long the page's paints must have stopped for its first screen to count as shown. */
const SETTLED_MS = 150;
/** The longest anything waits for the first screen. */
const FIRST_SCREEN_MAX_MS = 1500;

/**
 * Resolves once the screen rendered at `since` (a `performance.now()`) is shown, for what that screen does not need
 * (the player's code, the visit, the slide index): on a slow network it then shares the network with what comes
 * after the screen, not with it, and Lighthouse does not count it in the page's LCP.
 *
 * Shown means the browser has reported a largest paint from `since` on, and no new one for a moment (the poster
 * comes a little after the text). Without those reports (Safari; after a click or a key, which end them), the next
 * frame is enough. `early` (Play pressed, say) and a limit end the wait sooner.
 */
export function afterFirstScreen(since: number, early?: { target: EventTarget; type: string }): Promise<void> {
  return new Promise((resolve) => {
    let observer: PerformanceObserver | undefined;
    let frame = 0;
    let settled: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      observer?.disconnect();
      cancelAnimationFrame(frame);
      clearTimeout(settled);
      clearTimeout(limit);
      early?.target.removeEventListener(early.type, done);
      resolve();
    };
    const limit = setTimeout(done, FIRST_SCREEN_MAX_MS);
    early?.target.addEventListener(early.type, done, { once: true });
    const reported =
      typeof PerformanceObserver !== 'undefined' &&
      PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint') &&
      !navigator.userActivation?.hasBeenActive;
    if (reported) {
      observer = new PerformanceObserver((list) => {
        if (!list.getEntries().some((entry) => entry.startTime >= since)) return;
        clearTimeout(settled);
        settled = setTimeout(done, SETTLED_MS);
      });
      observer.observe({ type: 'largest-contentful-paint', buffered: true });
    } else {
      frame = requestAnimationFrame(() => setTimeout(done));
    }
  });
}
