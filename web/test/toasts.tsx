import { act, waitFor } from '@testing-library/react';
import { createRoot } from 'react-dom/client';
import { dismissAllToasts, Toasts, toast } from '../src/lib/toast';

let mounted = false;

/**
 * Puts the app's one `<Toasts />` on the page, once per run, outside testing-library's cleanup: as in the app,
 * sonner's Toaster mounts with the first toast and then stays (lib/toast.tsx loads it only once).
 */
export async function showToasts() {
  if (mounted) return;
  mounted = true;
  const host = document.createElement('div');
  host.id = 'toasts';
  document.body.append(host);
  await act(async () => createRoot(host).render(<Toasts />));
  // The first toast loads sonner and mounts its Toaster: done here, so no test waits for it.
  await act(async () => toast.info('ready'));
  await waitFor(() => {
    if (!document.querySelector('#toasts [data-sonner-toast]')) throw new Error('no Toaster yet');
  });
  await clearToasts();
}

/** Takes every toast off the page and waits until they are gone, so the next test reads only its own. */
export async function clearToasts() {
  dismissAllToasts();
  await waitFor(() => {
    if (document.querySelector('#toasts [data-sonner-toast]')) throw new Error('toasts still on the page');
  });
}
