import { z } from 'zod';

/** `GET /api/app`: what the web app needs to know about the server it runs on. */
export const appInfoJson = z.object({
  version: z.string(),
  /** `PUBLIC_URL`: the address share links, QR codes and emails use; null when unset. */
  publicUrl: z.string().nullable(),
  /** The server's address on the local network (http://192.168.1.20:3000), when it can tell; null in a container. */
  lanUrl: z.string().nullable(),
  /** `TIME_ZONE`: the school's time zone (IANA), in which a teacher types "watch by" times. */
  timeZone: z.string(),
  /** `MAX_RECORDING_MINUTES`: the browser's recorder stops itself at this length. */
  maxRecordingMinutes: z.number().int(),
  /** `MAX_UPLOAD_BYTES`: the largest upload, a recording included. */
  maxUploadBytes: z.number().int(),
});
export type AppInfoJson = z.infer<typeof appInfoJson>;
