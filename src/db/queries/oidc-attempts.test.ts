import { expect, test } from 'bun:test';
import { openScratchDatabase } from '../../test/database';
import { oidcAttempts } from '../schema';
import { deleteEndedOidcAttempts, OIDC_ATTEMPT_LIFETIME_MS } from './oidc-attempts';

test('the sweep forgets school sign-ins older than 10 minutes and keeps the ones on their way', async () => {
  const database = await openScratchDatabase();
  try {
    const now = Date.now();
    const attempt = (keyHash: string, createdAt: number) => ({
      keyHash,
      state: 's',
      nonce: 'n',
      codeVerifier: 'v',
      next: '/classroom',
      intent: 'sign_in' as const,
      createdAt,
    });
    await database.db
      .insert(oidcAttempts)
      .values([attempt('old', now - OIDC_ATTEMPT_LIFETIME_MS - 1), attempt('fresh', now - 60_000)]);
    await deleteEndedOidcAttempts(database.db, now);
    const left = await database.db.select({ keyHash: oidcAttempts.keyHash }).from(oidcAttempts);
    expect(left).toEqual([{ keyHash: 'fresh' }]);
  } finally {
    await database.close();
  }
});
