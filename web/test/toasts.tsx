import { dismissAllToasts } from '@lib/toast';
import { act } from '@testing-library/react';
import { createRoot, type Root } from 'react-dom/client';
import { Toaster } from 'sonner';

let root: Root | undefined;

/**
 * Puts a sonner Toaster on the page, outside testing-library's cleanup. The app's `toast` (lib/toast.tsx) sends
 * every toast to sonner, and any mounted Toaster shows it; the app's `<Toasts />` only adds placement, and
 * mounts its Toaster once per page load, which a run of many test files cannot repeat.
 */
export async function showToasts() {
  if (root) return;
  const host = document.createElement('div');
  host.id = 'toasts';
  document.body.append(host);
  root = createRoot(host);
  await act(async () => root!.render(<Toaster />));
}

/**
 * Takes every toast off the page at once, so the next test reads only its own: dismissed in sonner, and a fresh
 * Toaster (sonner would otherwise keep each one on screen for its exit animation).
 */
export async function clearToasts() {
  dismissAllToasts();
  await act(async () => root?.render(<Toaster key={Math.random()} />));
}
