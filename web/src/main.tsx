import { QueryClientProvider } from '@tanstack/react-query';
import { Provider, useSetAtom } from 'jotai';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { queryClient } from './api/query-client';
import { TOAST_MS } from './lib/messages';
import { router } from './router';
import { bindSessionToClient, loadSession, sessionAtom } from './state/session';

function App() {
  const setSession = useSetAtom(sessionAtom);
  useEffect(() => {
    bindSessionToClient(setSession);
    loadSession().then(setSession);
  }, [setSession]);
  return (
    <>
      <RouterProvider router={router} />
      <Toaster position="top-right" duration={TOAST_MS} richColors closeButton />
    </>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Provider>
          <App />
        </Provider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
