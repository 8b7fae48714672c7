import { expect, test } from 'bun:test';
import { readToken, signToken, TOKEN_LIFETIME_SECONDS } from './tokens';

const secretA = new TextEncoder().encode('a'.repeat(32));
const secretB = new TextEncoder().encode('b'.repeat(32));
const claims = { userId: 'u1', sessionId: 's1' };

test('a token checked once is known until it expires, and only under the secret that signed it', async () => {
  const token = await signToken(secretA, claims);
  expect(await readToken(secretA, token)).toEqual(claims);
  // Known now (no second signature check), and still refused under another secret.
  expect(await readToken(secretA, token)).toEqual(claims);
  expect(await readToken(secretB, token)).toBeUndefined();
  // After its expiry the cached entry does not answer for it.
  const later = Date.now() + (TOKEN_LIFETIME_SECONDS + 60) * 1000;
  expect(await readToken(secretA, token, later)).toBeUndefined();
  // A changed signature is never taken for the cached token.
  const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
  expect(await readToken(secretA, tampered)).toBeUndefined();
});
