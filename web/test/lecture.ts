/** A class with one topic for component tests: a one-second video (ffmpeg) sent through the real upload route. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeFetch } from './native-fetch';
import type { TestServer } from './server';

type Account = Awaited<ReturnType<TestServer['signUp']>>;
/** A file part of a multipart form. */
export type FilePart = { fileName: string; type: string; bytes: Uint8Array };

/**
 * A real one-second MP4 made by ffmpeg, which the server's ffprobe accepts (src/test/fixtures.ts reads through
 * Response, which happy-dom replaces). Nothing transcodes it: the test server runs no worker.
 */
export async function clipBytes(): Promise<Uint8Array<ArrayBuffer>> {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-web-clip-'));
  try {
    const path = join(dir, 'clip.mp4');
    const ffmpeg = Bun.spawn(
      [
        'ffmpeg',
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=160x90:rate=10',
        '-t',
        '1',
        '-pix_fmt',
        'yuv420p',
        path,
      ],
      { stdout: 'ignore', stderr: 'inherit' },
    );
    if ((await ffmpeg.exited) !== 0) throw new Error('ffmpeg could not make the clip');
    return new Uint8Array(readFileSync(path));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A multipart form sent with Bun's fetch, its body written by hand: happy-dom's FormData and Blob have replaced
 * Bun's, and Bun's fetch does not send them.
 */
export async function postForm(
  server: TestServer,
  path: string,
  token: string,
  parts: Record<string, string | FilePart>,
): Promise<{ status: number; json: any }> {
  const boundary = `----classroom${crypto.randomUUID()}`;
  const text = (value: string) => new TextEncoder().encode(value);
  const body = Buffer.concat([
    ...Object.entries(parts).flatMap(([name, value]) =>
      typeof value === 'string'
        ? [text(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)]
        : [
            text(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${value.fileName}"\r\n`),
            text(`content-type: ${value.type}\r\n\r\n`),
            value.bytes,
            text('\r\n'),
          ],
    ),
    text(`--${boundary}--\r\n`),
  ]);
  const response = await nativeFetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  return { status: response.status, json: await response.json() };
}

/** The teacher's new class with one topic, `nameOfTopic`, whose video went up through the real upload route. */
export async function classWithTopic(server: TestServer, teacher: Account, courseName: string, nameOfTopic: string) {
  const course = await server.api('POST', '/api/courses', { courseName, teacherId: teacher.user._id }, teacher.token);
  if (course.status !== 201) throw new Error(`class not created: ${JSON.stringify(course.json)}`);
  const uploaded = await postForm(server, '/api/upload', teacher.token, {
    courseId: course.json._id,
    nameOfTopic,
    uploadedFile: { fileName: 'clip.mp4', type: 'video/mp4', bytes: await clipBytes() },
  });
  if (uploaded.status !== 201 || !uploaded.json.lectureId) {
    throw new Error(`upload refused: ${JSON.stringify(uploaded.json)}`);
  }
  return { course: course.json as { _id: string; inviteCode: string }, lectureId: uploaded.json.lectureId as string };
}
