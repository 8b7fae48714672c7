import { expect, test } from 'bun:test';
import { queryClient } from '@api/query-client';
import { courseKeys } from '@api/query-keys';
import { playerClockAtom, seekRequestAtom } from './playback';
import { endSession, sessionAtom, sessionGenerationAtom } from './session';
import { onSignOut } from './sign-out';
import { appStore } from './store';
import { readToken, storeToken } from './token-cookie';

test('sign-out runs every registered reset, even after one that fails, and keeps nothing of the person', async () => {
  storeToken('a-token');
  appStore.set(sessionAtom, { status: 'authenticated', user: null });
  queryClient.setQueryData(courseKeys.list(), [{ _id: 'c1' }]);
  localStorage.setItem('classroom.player.volume', '0.5');
  localStorage.setItem('pendingInviteCode', 'ABC123');
  localStorage.setItem('not-ours', 'kept');
  const ran: string[] = [];
  const late = Promise.withResolvers<void>();
  onSignOut(() => ran.push('uploads'));
  onSignOut(() => {
    throw new Error('a broken reset');
  });
  onSignOut(async () => {
    await late.promise;
    ran.push('offline');
  });
  const tray = () => ran.push('tray');
  onSignOut(tray);
  // The same reset added twice runs once; one taken back does not run.
  onSignOut(tray);
  onSignOut(() => ran.push('removed'))();
  const generation = appStore.get(sessionGenerationAtom);

  endSession();
  late.resolve();
  await late.promise;
  await Promise.resolve();

  expect(ran.sort()).toEqual(['offline', 'tray', 'uploads']);
  expect(readToken()).toBeUndefined();
  expect(queryClient.getQueryData(courseKeys.list())).toBeUndefined();
  expect(localStorage.getItem('classroom.player.volume')).toBeNull();
  expect(localStorage.getItem('pendingInviteCode')).toBeNull();
  expect(localStorage.getItem('not-ours')).toBe('kept');
  expect(appStore.get(sessionAtom)).toEqual({ status: 'signed-out', user: null });
  expect(appStore.get(sessionGenerationAtom)).toBe(generation + 1);
  localStorage.removeItem('not-ours');
});

test('the playback a screen watched is set back at sign-out', () => {
  // A screen watching the player's clock is its first use: that adds the reset.
  const unwatch = appStore.sub(playerClockAtom, () => {});
  appStore.set(playerClockAtom, 42);
  appStore.set(seekRequestAtom, { seconds: 42, at: 1 });
  unwatch();

  endSession();

  expect(appStore.get(playerClockAtom)).toBe(0);
  expect(appStore.get(seekRequestAtom)).toBeNull();
});
