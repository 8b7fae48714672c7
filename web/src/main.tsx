import { queryClient } from '@api/query-client';
import { loadAllMessages, loadFirstMessages } from '@lib/i18n';
import { prefetchProviders } from '@lib/providers';
import { bindSessionToClient, loadSession, sessionAtom, sessionGenerationAtom } from '@lib/session';
import { keepStorageUsable } from '@lib/storage-fallback';
import { appStore } from '@lib/store';
import { Toasts } from '@lib/toast';
import { readToken } from '@lib/token-cookie';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider, useAtomValue, useSetAtom } from 'jotai';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoutes, preloadOpenedPage } from './router';

function App() {
  const setSession = useSetAtom(sessionAtom);
  // A new generation after each sign-out: every screen mounts afresh, keeping nothing of the last person.
  const generation = useAtomValue(sessionGenerationAtom);
  useEffect(() => {
    bindSessionToClient();
    loadSession().then(setSession);
    // Signed out, the sign-in page is next: its options load while its code does (and ship in this first chunk).
    if (!readToken()) void prefetchProviders();
  }, [setSession]);
  return (
    <>
      <AppRoutes key={generation} />
      <Toasts />
    </>
  );
}

const root = document.getElementById('root');
if (root) {
  keepStorageUsable();
  preloadOpenedPage();
  // Signed in, a signed-in page is next: every message loads beside the first ones.
  if (readToken()) void loadAllMessages().catch(() => undefined);
  // The page preloaded its language's first messages: the first render waits for them, never showing a key.
  void loadFirstMessages()
    .catch(() => loadAllMessages())
    .catch(() => undefined)
    .then(() => render(root));
}

function render(root: HTMLElement) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Provider store={appStore}>
          <App />
        </Provider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

export { PasswordInput } from '@ui/PasswordInput';
/*
 * The sign-in screens' frame and password field ship in this first chunk rather than as two small shared chunks: the
 * first page (sign-in) makes two requests fewer, each of which cost more in headers than in bytes (bench:web counts
 * both). The shared limits do not: the sign-in page uses none of them.
 */
export { AuthLayout } from './app/AuthLayout';
