import { type ComponentType, lazy } from 'react';
import { loadAllMessages, loadAppStyles } from './i18n';

/** Pages whose code failed to arrive: Retry (ui/PageLoadBoundary) gives each a fresh attempt. */
const failed = new Set<() => void>();

/** Gives every page whose code failed to load a fresh attempt at its next render. */
export function retryFailedPages() {
  for (const reset of failed) reset();
  failed.clear();
}

/**
 * A screen whose code loads when it is first shown (React.lazy), with `preload()` to start that early. A loaded page
 * renders without suspending: a thenable that answers at once, so no fallback shows, nor React's 300 ms hold on
 * what replaces a fallback. A failed load (offline, or a server updated since the page was opened) is not kept
 * for ever, as React.lazy keeps it: after `retryFailedPages()` the next render tries again.
 */
export function page<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  let loaded: { default: ComponentType } | undefined;
  // A page shows with every message of its language and the whole app's style sheet (the first page has its own).
  const preload = (): Promise<{ default: ComponentType }> =>
    Promise.all([load(), loadAllMessages(), loadAppStyles()]).then(
      ([module]) => (loaded = { default: module[name] as ComponentType }),
    );
  const attempt = () =>
    lazy<ComponentType>(() =>
      loaded
        ? // biome-ignore lint/suspicious/noThenProperty: React.lazy takes a thenable; this one answers at once
          ({ then: (take: (module: typeof loaded) => void) => take(loaded) } as ReturnType<typeof preload>)
        : preload().catch((error: unknown) => {
            failed.add(() => {
              Current = attempt();
            });
            throw error;
          }),
    );
  let Current = attempt();
  // biome-ignore lint/correctness/noComponentHookFactories: page() runs once per screen, when the router module loads
  const Page = () => <Current />;
  Page.displayName = name;
  return Object.assign(Page, {
    /** Starts loading the code now; a failure here is left to the render, which shows it. */
    preload: () => preload().catch(() => undefined),
  });
}

/** A part of a page loaded later (React.lazy), which also waits for every message and the whole app's styles. */
export function lazyPart<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  return lazy(() =>
    Promise.all([load(), loadAllMessages(), loadAppStyles()]).then(([component]) => ({ default: component })),
  );
}
