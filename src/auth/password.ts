export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: 'argon2id' });
}

/** An account made by a school sign-in has no password (hash ''): no password opens it, in the same time. */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (hash === '') return verifyAgainstDummy(password);
  return Bun.password.verify(password, hash);
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so an unknown email answers as slowly as a wrong password. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy password that never matches');
  await verifyPassword(password, await dummyHash);
  return false;
}
