import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { ApiError, badRequest } from '../errors';
import { newId } from '../lib/ids';

/** The file on disk, and the form's short text fields (first value of each name). */
export type ReceivedFile = { path: string; fileName: string; bytes: number; fields: Record<string, string> };

/**
 * Streams the one file field of a multipart body to a temp file, never holding it in memory.
 * Any failure (too large, client gone, bad form) removes the temp file before throwing.
 */
export function receiveUpload(
  request: Request,
  options: { field: string; maxBytes: number; tempDir: string },
): Promise<ReceivedFile> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data') || !request.body) {
    return Promise.reject(badRequest('bad_form', 'errors.sendVideoAsForm'));
  }
  mkdirSync(options.tempDir, { recursive: true });
  const path = join(options.tempDir, `${newId()}.upload`);

  return new Promise<ReceivedFile>((resolve, reject) => {
    let settled = false;
    let fileSeen = false;
    let fileName = '';
    let bytes = 0;
    const fields: Record<string, string> = {};
    let writeDone: Promise<void> | undefined;
    let out: import('node:fs').WriteStream | undefined;
    const source = Readable.fromWeb(request.body as unknown as import('node:stream/web').ReadableStream<Uint8Array>);

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      source.destroy();
      out?.destroy();
      // Wait for the write stream to close before removing, so no half file is left behind.
      (writeDone ?? Promise.resolve()).catch(() => {}).finally(() => rmSync(path, { force: true }));
      reject(error);
    };

    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 1, fileSize: options.maxBytes, fields: 20, fieldSize: 10_000, parts: 30 },
      });
    } catch {
      return reject(badRequest('bad_form', 'errors.sendVideoAsForm'));
    }

    parser.on('field', (name, value) => {
      if (!(name in fields)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== options.field || fileSeen) {
        stream.resume();
        return;
      }
      fileSeen = true;
      fileName = info.filename ?? '';
      const file = createWriteStream(path);
      out = file;
      writeDone = new Promise<void>((done, broken) => {
        file.on('close', done);
        file.on('error', broken);
      });
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      stream.on('limit', () => {
        fail(new ApiError(413, 'too_large', 'errors.videoTooLarge'));
      });
      stream.pipe(file);
      file.on('error', (error) => fail(error));
    });
    parser.on('error', () => fail(badRequest('bad_form', 'errors.uploadUnreadable')));
    parser.on('close', async () => {
      if (settled) return;
      if (!fileSeen) return fail(badRequest('missing_file', 'errors.chooseVideo'));
      try {
        await writeDone;
      } catch (error) {
        return fail(error);
      }
      if (settled) return;
      if (bytes === 0) return fail(badRequest('empty_file', 'errors.emptyFile'));
      settled = true;
      resolve({ path, fileName, bytes, fields });
    });
    source.on('error', () => fail(badRequest('upload_interrupted', 'errors.uploadInterrupted')));
    // Bun ends a request's signal when its client goes away; the body stream may just stop.
    request.signal.addEventListener('abort', () => fail(badRequest('upload_interrupted', 'errors.uploadInterrupted')));
    source.on('aborted', () => fail(badRequest('upload_interrupted', 'errors.uploadInterrupted')));
    source.pipe(parser);
  });
}
