import { queryClient } from '@api/query-client';
import { sessionAtom } from '@lib/session';
import { appStore } from '@lib/store';
import { clearToken, storeToken } from '@lib/token-cookie';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';

/** Renders as main.tsx does: the app's jotai store, its one query cache and a router. */
export function renderInApp(ui: ReactNode, path = '/') {
  return render(
    <Provider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </Provider>,
  );
}

/** Signs this page in as the account: the token cookie the server set, and the session the app would load. */
export function signInAs(account: { token: string; user: any }) {
  queryClient.clear();
  storeToken(account.token);
  appStore.set(sessionAtom, { status: 'authenticated', user: account.user });
}

/** A visitor: no token, no session, nothing cached from an earlier test file. */
export function signedOut() {
  queryClient.clear();
  clearToken();
  appStore.set(sessionAtom, { status: 'unauthenticated', user: null });
}
