import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import { ltiToolKeys } from '../db/schema';
import { rotateToolKey, signAsTool } from '../lti/keys';
import { type Harness, startHarness } from '../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { worker: false });
});
afterAll(() => h?.close());

describe('our LTI key set', () => {
  test('is public, holds only public keys, and checks what the newest key signed', async () => {
    const first = await h.api('GET', '/api/lti/jwks');
    expect(first.status).toBe(200);
    expect(first.json.keys).toHaveLength(1);
    await rotateToolKey(h.db);
    const jwks = (await h.api('GET', '/api/lti/jwks')).json;
    expect(jwks.keys).toHaveLength(2);
    for (const key of jwks.keys) {
      // Read into a fresh object: Bun's toMatchObject leaves its matchers in the object it was given.
      expect({ kty: key.kty, alg: key.alg, use: key.use, kid: typeof key.kid }).toEqual({
        kty: 'RSA',
        alg: 'RS256',
        use: 'sig',
        kid: 'string',
      });
      // A private part would hand our signature to anyone.
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key[secret]).toBeUndefined();
    }
    const jwt = await signAsTool(h.db, { hello: 'platform' }, { audience: 'https://lms.test', expiresIn: 60 });
    const rows = await h.db.select().from(ltiToolKeys);
    const newest = rows.sort((a, b) => b.createdAt - a.createdAt || b.kid.localeCompare(a.kid))[0];
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'RS256', kid: newest.kid });
    const { payload } = await compactVerify(jwt, createLocalJWKSet(jwks));
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({ hello: 'platform', aud: 'https://lms.test' });
  });
});
