/** A class with one topic for component tests: a one-second video (ffmpeg) sent through the real upload route. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeFetch } from './native-fetch';
import type { TestServer } from './server';

type Account = Awaited<ReturnType<TestServer['signUp']>>;

/** A tiny MP4 the server's ffprobe accepts (nothing transcodes it: the test server runs no worker). */
async function clip(): Promise<Uint8Array> {
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
 * The teacher's new class with one topic, `nameOfTopic`. The multipart body is written by hand: happy-dom's
 * FormData and Blob have replaced Bun's, and Bun's fetch does not send them.
 */
export async function classWithTopic(server: TestServer, teacher: Account, courseName: string, nameOfTopic: string) {
  const course = await server.api('POST', '/api/courses', { courseName, teacherId: teacher.user._id }, teacher.token);
  if (course.status !== 201) throw new Error(`class not created: ${JSON.stringify(course.json)}`);
  const boundary = `----classroom${crypto.randomUUID()}`;
  const part = (name: string, value: string) =>
    `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const text = (value: string) => new TextEncoder().encode(value);
  const body = Buffer.concat([
    text(part('courseId', course.json._id)),
    text(part('nameOfTopic', nameOfTopic)),
    text(`--${boundary}\r\ncontent-disposition: form-data; name="uploadedFile"; filename="clip.mp4"\r\n`),
    text('content-type: video/mp4\r\n\r\n'),
    await clip(),
    text(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await nativeFetch(`${server.baseUrl}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${teacher.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  const answer = (await uploaded.json()) as { lectureId?: string };
  if (uploaded.status !== 201 || !answer.lectureId) throw new Error(`upload refused: ${JSON.stringify(answer)}`);
  return { course: course.json as { _id: string; inviteCode: string }, lectureId: answer.lectureId };
}
