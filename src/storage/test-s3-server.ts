import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export const TEST_BUCKET = 'classroom-test';

/**
 * A real S3-compatible server for the tests (s3rver, on a loopback port, its objects in a temp folder): what
 * STORAGE_URL=s3://… talks to in the storage, media and upload tests. `env` holds the settings a server needs;
 * each caller gets its own prefix in the one bucket.
 */
export async function startS3Server() {
  const directory = mkdtempSync(join(tmpdir(), 'classroom-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    directory,
    /** The settings of a server storing under its own prefix of the test bucket. */
    env(prefix = `t${Math.random().toString(36).slice(2, 10)}`): Record<string, string> {
      return {
        STORAGE_URL: `s3://${TEST_BUCKET}/${prefix}`,
        S3_ENDPOINT: endpoint,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      };
    },
    /** How many objects the bucket holds (any prefix), read from s3rver's own folder. */
    objectCount() {
      const count = (dir: string): number =>
        readdirSync(dir, { withFileTypes: true }).reduce(
          (n, entry) =>
            n + (entry.isDirectory() ? count(join(dir, entry.name)) : entry.name.endsWith('._S3rver_object') ? 1 : 0),
          0,
        );
      return count(join(directory, TEST_BUCKET));
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
