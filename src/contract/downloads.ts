import { z } from 'zod';
import type { Download } from '../db/schema';

/** Where a lecture's offline MP4 is served (with its Content-Disposition), and its state is asked for. */
export const downloadUrl = (lectureId: string) => `/api/lectures/${lectureId}/download`;
export const downloadFileUrl = (lectureId: string) => `/api/lectures/${lectureId}/download/file`;

const rungJson = z.object({ name: z.string(), width: z.number().int(), height: z.number().int() });

/**
 * The offline MP4 of a lecture (`GET`/`POST /api/lectures/{id}/download`): `none` (never asked for), `preparing`
 * (with `progress` 0 to 100), `ready` (with `url`) or `failed` (with `error`; POST again to retry). `bytes` is the
 * MP4's size when ready, before that the rung's size (close to it), so the app can show it before downloading.
 */
export const downloadJson = z.object({
  status: z.enum(['none', 'preparing', 'ready', 'failed']),
  progress: z.number(),
  url: z.string().nullable(),
  filename: z.string(),
  bytes: z.number().int(),
  rung: rungJson,
  error: z.string().nullable(),
});
export type DownloadJson = z.infer<typeof downloadJson>;

/**
 * What a service worker caches to play a lecture offline through HLS (`GET /api/lectures/{id}/offline`): the
 * lecture's JSON, the download rung's playlist and every file it names (signed URLs, good until `expiresAt`; after
 * that the same URLs still answer a signed-in member), the poster, the captions, and their total size.
 */
export const offlineManifestJson = z.object({
  lectureId: z.string(),
  lecture: z.string(),
  rung: rungJson,
  playlist: z.string(),
  files: z.array(z.string()),
  poster: z.string().nullable(),
  captions: z.array(z.object({ language: z.string(), label: z.string(), url: z.string(), bytes: z.number().int() })),
  bytes: z.number().int(),
  durationSeconds: z.number(),
  expiresAt: z.string(),
  download: z.string(),
});
export type OfflineManifestJson = z.infer<typeof offlineManifestJson>;

/** A file name made from a lecture's title: letters, digits, spaces, dots, dashes and underscores, at most 80. */
export function safeFilename(title: string): string {
  const cleaned = title
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[ .]+|[ .]+$/g, '')
    .slice(0, 80)
    .trim();
  return `${cleaned || 'lecture'}.mp4`;
}

/** A download row as the API answers it (undefined: never asked for). */
export function toDownloadJson(
  lectureId: string,
  title: string,
  rung: z.infer<typeof rungJson>,
  row: Pick<Download, 'status' | 'progress' | 'bytes' | 'error'> | undefined,
  rungBytes: number,
): DownloadJson {
  const status = !row ? 'none' : row.status === 'queued' ? 'preparing' : row.status;
  return {
    status,
    progress: row ? Math.round(row.progress) : 0,
    url: status === 'ready' ? downloadFileUrl(lectureId) : null,
    filename: safeFilename(title),
    bytes: status === 'ready' && row?.bytes ? row.bytes : rungBytes,
    rung,
    error: status === 'failed' ? (row?.error ?? 'The download could not be prepared.') : null,
  };
}
