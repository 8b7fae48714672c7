import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expireResumableUploads } from '../media/resumable-store';
import { RESUMABLE_PREFIX } from '../storage/resumable';
import { makeClip, readBytes } from '../test/fixtures';
import { type Harness, startHarness } from '../test/harness';
import { createClass } from '../test/scenario';
import { startSecondServer } from '../test/second-server';

let h: Harness;
let clips: string;
let teacher: Awaited<ReturnType<Harness['signUp']>>;
let otherTeacher: typeof teacher;
let student: typeof teacher;
let courseId: string;
let bytes: Uint8Array;

beforeAll(async () => {
  h = await startHarness({ MAX_UPLOAD_BYTES: String(20 * 1024 * 1024) });
  clips = mkdtempSync(join(tmpdir(), 'classroom-tus-'));
  teacher = await h.signUp('teacher');
  otherTeacher = await h.signUp('teacher');
  student = await h.signUp('student');
  courseId = (await createClass(h, teacher, 'Resumable 101')).id;
  bytes = readBytes(await makeClip(clips, { width: 320, height: 240, seconds: 3, name: 'tus.mp4' }));
});
afterAll(async () => {
  await h?.close();
  rmSync(clips, { recursive: true, force: true });
});

const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

async function tus(
  method: string,
  path: string,
  token: string,
  headers: Record<string, string> = {},
  body?: Uint8Array,
) {
  return fetch(`${h.baseUrl}${path}`, {
    method,
    headers: { 'Tus-Resumable': '1.0.0', authorization: `Bearer ${token}`, ...headers },
    body: body as BodyInit | undefined,
  });
}
const create = (token: string, size: number, fields: Record<string, string> = { filename: 'tus.mp4' }) =>
  tus('POST', '/api/uploads', token, { 'Upload-Length': String(size), 'Upload-Metadata': metadata(fields) });
const send = (token: string, location: string, offset: number, chunk: Uint8Array) =>
  tus(
    'PATCH',
    location,
    token,
    { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
    chunk,
  );

test('an upload sent in two pieces, resumed from the offset the server reports, becomes a topic that plays', async () => {
  const created = await create(teacher.token, bytes.length, { filename: 'tus.mp4', courseId, nameOfTopic: 'Resumed' });
  expect(created.status).toBe(201);
  const location = created.headers.get('location') as string;
  expect(location).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]+$/);
  const id = location.split('/').pop() as string;

  const half = Math.floor(bytes.length / 2);
  expect((await send(teacher.token, location, 0, bytes.slice(0, half))).status).toBe(204);
  // Not finished: the result is not there yet, and says how far it got.
  const early = await h.api('GET', location, { as: teacher.token });
  expect(early.status).toBe(409);
  expect(early.json.offset).toBe(half);

  // "The connection dropped": ask where to go on, then send the rest.
  const head = await tus('HEAD', location, teacher.token);
  expect(head.headers.get('upload-offset')).toBe(String(half));
  expect((await send(teacher.token, location, half, bytes.slice(half))).status).toBe(204);

  const result = await h.api('GET', location, { as: teacher.token });
  expect(result.status).toBe(200);
  expect(result.json.videoId).toBe(id);
  expect(result.json.masterPlaylist).toBe(`/media/videos/${id}/master.m3u8`);
  const lecture = (await h.api('GET', `/api/lectures/${result.json.lectureId}`, { as: teacher.token })).json;
  expect(lecture.nameOfTopic).toBe('Resumed');
  // The upload's own files are gone once it became a video, but it still answers as complete: a client that
  // lost the last response must not start over (and make the topic twice).
  expect(await h.storage.list(RESUMABLE_PREFIX)).toEqual([]);
  const after = await tus('HEAD', location, teacher.token);
  expect(after.status).toBe(200);
  expect(after.headers.get('upload-offset')).toBe(String(bytes.length));
  expect(after.headers.get('upload-length')).toBe(String(bytes.length));
  expect((await tus('HEAD', location, otherTeacher.token)).status).toBe(404);
  const deadline = Date.now() + 60_000;
  while ((await h.api('GET', `/api/videos/${id}`, { as: teacher.token })).json.status !== 'ready') {
    if (Date.now() > deadline) throw new Error('not ready');
    await Bun.sleep(200);
  }
});

test('uploads belong to their creator; students, strangers and over-size uploads are refused in our error shape', async () => {
  const created = await create(teacher.token, bytes.length);
  const location = created.headers.get('location') as string;
  await send(teacher.token, location, 0, bytes.slice(0, 1000));
  // An earlier upload's transcode or slide index must not move rows between the snapshots.
  await h.jobsSettled();
  const before = h.snapshot();
  const files = (await h.storage.list(RESUMABLE_PREFIX)).sort();

  for (const [name, response, status] of [
    ['another teacher asks where it is', await tus('HEAD', location, otherTeacher.token), 404],
    ['another teacher sends bytes', await send(otherTeacher.token, location, 1000, bytes.slice(1000, 2000)), 404],
    ['another teacher ends it', await tus('DELETE', location, otherTeacher.token), 404],
    [
      'another teacher reads it',
      await fetch(`${h.baseUrl}${location}`, { headers: { authorization: `Bearer ${otherTeacher.token}` } }),
      404,
    ],
    ['a student starts one', await create(student.token, bytes.length), 403],
    [
      'nobody starts one',
      await fetch(`${h.baseUrl}/api/uploads`, {
        method: 'POST',
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '10' },
      }),
      401,
    ],
    ['over the size limit', await create(teacher.token, 21 * 1024 * 1024), 413],
    [
      "into another teacher's class",
      await create(otherTeacher.token, 100, { filename: 'x.mp4', courseId, nameOfTopic: 'Mine' }),
      404,
    ],
  ] as const) {
    expect({ name, status: response.status }).toEqual({ name, status });
    const body = await response.text();
    if (response.status !== 404 || !name.includes('asks'))
      expect({ name, json: JSON.parse(body).code }).toEqual({ name, json: expect.any(String) });
  }
  expect(h.snapshot()).toEqual(before);
  expect((await h.storage.list(RESUMABLE_PREFIX)).sort()).toEqual(files);

  // The owner can end it, which removes its bytes.
  expect((await tus('DELETE', location, teacher.token)).status).toBe(204);
  expect(await h.storage.list(RESUMABLE_PREFIX)).toEqual([]);
});

test("tus's own refusals answer our error shape with a code, keep their status and tus headers, and change nothing", async () => {
  const created = await create(teacher.token, 100, { filename: 'x.mp4', courseId, nameOfTopic: 'Refusals' });
  const location = created.headers.get('location') as string;
  await h.jobsSettled();
  const before = h.snapshot();
  const files = (await h.storage.list(RESUMABLE_PREFIX)).sort();
  const octets = { 'Content-Type': 'application/offset+octet-stream' };
  const piece = new Uint8Array(10);
  const withoutVersion = (method: string, path: string, headers: Record<string, string>, body?: Uint8Array) =>
    fetch(`${h.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${teacher.token}`, ...headers },
      body: body as BodyInit | undefined,
    });
  for (const [name, response, status, code] of [
    [
      'no Tus-Resumable',
      await withoutVersion('POST', '/api/uploads', { 'Upload-Length': '10' }),
      412,
      'tus_version_required',
    ],
    [
      'an old tus version',
      await tus('POST', '/api/uploads', teacher.token, { 'Tus-Resumable': '0.2.2', 'Upload-Length': '10' }),
      400,
      'invalid_tus_resumable',
    ],
    [
      'a length that is not a number',
      await tus('POST', '/api/uploads', teacher.token, { 'Upload-Length': 'ten' }),
      400,
      'invalid_upload_length',
    ],
    [
      'a negative length',
      await tus('POST', '/api/uploads', teacher.token, { 'Upload-Length': '-5' }),
      400,
      'invalid_upload_length',
    ],
    ['no length', await tus('POST', '/api/uploads', teacher.token, {}), 400, 'length_required'],
    [
      'metadata that is not pairs',
      await tus('POST', '/api/uploads', teacher.token, { 'Upload-Length': '10', 'Upload-Metadata': 'a b c,,' }),
      400,
      'invalid_upload_metadata',
    ],
    [
      'a NUL in a file name (PostgreSQL cannot store one)',
      await create(teacher.token, 10, { filename: 'a\u0000b.mp4', courseId, nameOfTopic: 'Hidden' }),
      400,
      'invalid_upload_metadata',
    ],
    [
      'bytes without Tus-Resumable',
      await withoutVersion('PATCH', location, { 'Upload-Offset': '0', ...octets }, piece),
      412,
      'tus_version_required',
    ],
    [
      'bytes as text',
      await tus('PATCH', location, teacher.token, { 'Upload-Offset': '0', 'Content-Type': 'text/plain' }, piece),
      400,
      'invalid_content_type',
    ],
    ['bytes without an offset', await tus('PATCH', location, teacher.token, octets, piece), 403, 'offset_required'],
    [
      'an offset that is not a number',
      await tus('PATCH', location, teacher.token, { 'Upload-Offset': 'x', ...octets }, piece),
      400,
      'invalid_upload_offset',
    ],
    ['an offset past where it stands', await send(teacher.token, location, 50, piece), 409, 'offset_conflict'],
    ['more bytes than its length', await send(teacher.token, location, 0, new Uint8Array(101)), 413, 'too_large'],
  ] as const) {
    const json = await response.json().catch(() => undefined);
    expect({ name, status: response.status, type: response.headers.get('content-type'), code: json?.code }).toEqual({
      name,
      status,
      type: 'application/json',
      code,
    });
    expect({ name, error: typeof json.error, same: json.message === json.error }).toEqual({
      name,
      error: 'string',
      same: true,
    });
    expect({ name, tus: response.headers.get('tus-resumable') }).toEqual({ name, tus: '1.0.0' });
  }
  expect(h.snapshot()).toEqual(before);
  expect((await h.storage.list(RESUMABLE_PREFIX)).sort()).toEqual(files);
  expect((await tus('HEAD', location, teacher.token)).headers.get('upload-offset')).toBe('0');
  expect((await tus('DELETE', location, teacher.token)).status).toBe(204);
});

test('OPTIONS answers without a sign-in what tus needs to know, and opens nothing to other sites', async () => {
  const created = await create(teacher.token, bytes.length);
  const location = created.headers.get('location') as string;
  // An earlier upload's transcode or slide index must not move rows between the snapshots.
  await h.jobsSettled();
  const before = h.snapshot();
  const files = (await h.storage.list(RESUMABLE_PREFIX)).sort();
  for (const path of ['/api/uploads', location, '/api/uploads/not-an-upload']) {
    // No token, no cookie, no Tus-Resumable: the protocol's discovery request, from another site too.
    const answer = await fetch(`${h.baseUrl}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example' },
    });
    expect({ path, status: answer.status }).toEqual({ path, status: 204 });
    expect(answer.headers.get('tus-version')).toBe('1.0.0');
    expect(answer.headers.get('tus-extension')?.split(',')).toEqual(
      expect.arrayContaining(['creation', 'termination', 'expiration']),
    );
    expect(answer.headers.get('tus-max-size')).toBe(String(20 * 1024 * 1024));
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(await answer.text()).toBe('');
  }
  // Creating or sending still needs a sign-in, and the upload's creator; OPTIONS changed nothing.
  expect((await tus('HEAD', location, 'not-a-token')).status).toBe(401);
  expect(h.snapshot()).toEqual(before);
  expect((await h.storage.list(RESUMABLE_PREFIX)).sort()).toEqual(files);
  expect((await tus('DELETE', location, teacher.token)).status).toBe(204);
});

test('a file that is not a video is refused when its last byte lands, and nothing is kept', async () => {
  const junk = new TextEncoder().encode('this is not a video at all'.repeat(100));
  const created = await create(teacher.token, junk.length, { filename: 'notes.txt' });
  // An earlier upload's transcode or slide index must not move rows between the snapshots.
  await h.jobsSettled();
  const before = h.snapshot();
  const last = await send(teacher.token, created.headers.get('location') as string, 0, junk);
  expect(last.status).toBe(400);
  expect((await last.json()).code).toBe('not_a_video');
  expect(h.snapshot()).toEqual(before);
  expect(await h.storage.list(RESUMABLE_PREFIX)).toEqual([]);
});

test('an unfinished upload is removed after 24 hours', async () => {
  const created = await create(teacher.token, bytes.length);
  const id = (created.headers.get('location') as string).split('/').pop() as string;
  await send(teacher.token, `/api/uploads/${id}`, 0, bytes.slice(0, 500));
  expect(await expireResumableUploads(h.storage)).toBe(0);
  // Age it by a day, as the clock would (the file store's description beside the bytes; on S3 in the upload's folder).
  const info = h.storage.kind === 'local' ? `${RESUMABLE_PREFIX}/${id}.json` : `${RESUMABLE_PREFIX}/${id}/info.json`;
  const meta = JSON.parse(await new Response(await h.storage.get(info)).text());
  meta.creation_date = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
  await h.storage.put(info, new TextEncoder().encode(JSON.stringify(meta)));
  expect(await expireResumableUploads(h.storage)).toBe(1);
  expect(await h.storage.list(RESUMABLE_PREFIX)).toEqual([]);
});

test('an upload begun on one server process and resumed on another completes there', async () => {
  const second = startSecondServer(h);
  try {
    const created = await create(teacher.token, bytes.length, {
      filename: 'moved.mp4',
      courseId,
      nameOfTopic: 'Moved',
    });
    const location = created.headers.get('location') as string;
    const third = Math.floor(bytes.length / 3);
    expect((await send(teacher.token, location, 0, bytes.slice(0, third))).status).toBe(204);
    // The load balancer sends the rest elsewhere: that process knows where the upload stands, and finishes it.
    const there = (method: string, headers: Record<string, string>, body?: Uint8Array) =>
      fetch(`${second.baseUrl}${location}`, {
        method,
        headers: { 'Tus-Resumable': '1.0.0', authorization: `Bearer ${teacher.token}`, ...headers },
        body: body as BodyInit | undefined,
      });
    const head = await there('HEAD', {});
    expect(head.headers.get('upload-offset')).toBe(String(third));
    const rest = { 'Content-Type': 'application/offset+octet-stream' };
    expect(
      (await there('PATCH', { ...rest, 'Upload-Offset': String(third) }, bytes.slice(third, 2 * third))).status,
    ).toBe(204);
    // And back to the first for the last piece.
    expect((await send(teacher.token, location, 2 * third, bytes.slice(2 * third))).status).toBe(204);
    const result = await h.api('GET', location, { as: teacher.token });
    expect(result.status).toBe(200);
    // The pieces joined in order make the clip again: it transcodes.
    const deadline = Date.now() + 60_000;
    let status = '';
    while (status !== 'ready' && status !== 'failed' && Date.now() < deadline) {
      status = (await h.api('GET', `/api/videos/${result.json.videoId}`, { as: teacher.token })).json.status;
      await Bun.sleep(100);
    }
    expect(status).toBe('ready');
    expect(await h.storage.list(RESUMABLE_PREFIX)).toEqual([]);
    expect(readdirSync(second.scratch).flatMap((name) => readdirSync(join(second.scratch, name)))).toEqual([]);
  } finally {
    await second.close();
  }
});
