import { join } from 'node:path';

/** Every media file path is built here from ids the server generated, never from user text. */
const assertId = (id: string) => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new Error(`Refusing to build a path from id ${JSON.stringify(id)}`);
  return id;
};

export const avatarsDir = (dataDir: string) => join(dataDir, 'avatars');
export const avatarFile = (dataDir: string, userId: string) => join(avatarsDir(dataDir), `${assertId(userId)}.webp`);
export const tempDir = (dataDir: string) => join(dataDir, 'tmp');
