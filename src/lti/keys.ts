import { desc } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';
import type { Db } from '../db/client';
import { ltiToolKeys } from '../db/schema';
import { newId } from '../lib/ids';

/**
 * Our own LTI key pairs (docs/lti.md). The newest signs what we send a platform (deep-linking answers, service
 * token requests); every key is published at GET /api/lti/jwks, so a platform still checks what an older key signed.
 * The first key is made on first use. `private_jwk` is a secret: never logged and never in an answer.
 */

const ALG = 'RS256';

type ToolKey = { kid: string; privateKey: CryptoKey };

async function makeKey(db: Db) {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { modulusLength: 2048, extractable: true });
  const kid = newId();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
  await db
    .insert(ltiToolKeys)
    .values({
      kid,
      privateJwk: JSON.stringify(privateJwk),
      publicJwk: JSON.stringify(publicJwk),
      createdAt: Date.now(),
    })
    .onConflictDoNothing();
}

/** The newest key, made when there is none. */
async function newestKey(db: Db): Promise<ToolKey> {
  let [row] = await db.select().from(ltiToolKeys).orderBy(desc(ltiToolKeys.createdAt), desc(ltiToolKeys.kid)).limit(1);
  if (!row) {
    await makeKey(db);
    [row] = await db.select().from(ltiToolKeys).orderBy(desc(ltiToolKeys.createdAt), desc(ltiToolKeys.kid)).limit(1);
  }
  const privateKey = (await importJWK(JSON.parse(row.privateJwk) as JWK, ALG)) as CryptoKey;
  return { kid: row.kid, privateKey };
}

/** Adds a new signing key (the older ones stay published until removed): a key rotation. */
export async function rotateToolKey(db: Db) {
  await makeKey(db);
}

/** A compact JWT of `claims`, signed with the newest tool key (RS256, `kid` in the header). */
export async function signAsTool(
  db: Db,
  claims: JWTPayload,
  options: { audience: string | string[]; expiresIn: string | number },
): Promise<string> {
  const key = await newestKey(db);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
    .setIssuedAt()
    .setAudience(options.audience)
    .setExpirationTime(
      typeof options.expiresIn === 'number' ? Math.floor(Date.now() / 1000) + options.expiresIn : options.expiresIn,
    )
    .setJti(newId())
    .sign(key.privateKey);
}

/** Our public key set, every key (a first one is made when there is none). */
export async function toolJwks(db: Db): Promise<{ keys: JWK[] }> {
  let rows = await db
    .select({ publicJwk: ltiToolKeys.publicJwk })
    .from(ltiToolKeys)
    .orderBy(desc(ltiToolKeys.createdAt));
  if (rows.length === 0) {
    await makeKey(db);
    rows = await db.select({ publicJwk: ltiToolKeys.publicJwk }).from(ltiToolKeys).orderBy(desc(ltiToolKeys.createdAt));
  }
  return { keys: rows.map((row) => JSON.parse(row.publicJwk) as JWK) };
}
