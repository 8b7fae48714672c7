import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expireResumableUploads } from '../media/resumable-store';
import { sweepMedia } from '../media/sweep';
import { mediaKey, sourceKey, UPLOADS_PREFIX } from '../storage/keys';
import { RESUMABLE_PREFIX } from '../storage/resumable';
import { makeClip, makeRecordingClip, readBytes } from '../test/fixtures';
import { type Harness, startHarness } from '../test/harness';
import { createClass } from '../test/scenario';
import { startSecondServer } from '../test/second-server';
import { waitForVideo } from '../test/wait';

let h: Harness;
let clips: string;
let teacher: Awaited<ReturnType<Harness['signUp']>>;
let otherTeacher: typeof teacher;
let student: typeof teacher;
let courseId: string;
let bytes: Uint8Array;

beforeAll(async () => {
  // A one-minute recording limit (a 70 s recording is refused), and a short lease: a trim that cancels a running
  // transcode starts its own after one lease.
  h = await startHarness({
    MAX_UPLOAD_BYTES: String(20 * 1024 * 1024),
    MAX_RECORDING_MINUTES: '1',
    JOB_LEASE_SECONDS: '5',
  });
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

/** A browser recording's creation: no length yet (tus creation-defer-length), marked `recording` for a class. */
const createRecording = (token: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  tus('POST', '/api/uploads', token, {
    'Upload-Defer-Length': '1',
    'Upload-Metadata': metadata({ filename: 'recording.webm', filetype: 'video/webm', recording: '1', ...fields }),
    ...headers,
  });
/** Sends the recording in pieces as MediaRecorder hands them over; the last says the length. */
async function sendRecording(token: string, location: string, recording: Uint8Array, pieces: number, from = 0) {
  const size = Math.ceil(recording.length / pieces);
  let answer: Response | undefined;
  for (let offset = from; offset < recording.length; offset += size) {
    const last = offset + size >= recording.length;
    answer = await tus(
      'PATCH',
      location,
      token,
      {
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
        ...(last ? { 'Upload-Length': String(recording.length) } : {}),
      },
      recording.slice(offset, offset + size),
    );
    if (!last) expect(answer.status).toBe(204);
  }
  return answer as Response;
}
const videoOf = (id: string) => async () => (await h.api('GET', `/api/videos/${id}`, { as: teacher.token })).json;
/** The length of the published ladder: its first rung's segments added up. */
async function publishedSeconds(id: string) {
  const playlist = await new Response(await h.storage.get(mediaKey(id, { kind: 'playlist', rung: 0 }))).text();
  return [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
}

test('a recording sent as it is made becomes a video; a trim, even mid-transcode, publishes only the kept part; Save links it', async () => {
  const recording = readBytes(
    await makeRecordingClip(clips, { name: 'lesson.webm', seconds: 7, flashAt: 3, container: 'webm' }),
  );
  const created = await createRecording(teacher.token, { courseId });
  expect(created.status).toBe(201);
  const location = created.headers.get('location') as string;
  const id = location.split('/').pop() as string;
  // Half-way, the server knows how much it has but not how much will come.
  const size = Math.ceil(recording.length / 4);
  expect((await send(teacher.token, location, 0, recording.slice(0, size))).status).toBe(204);
  const head = await tus('HEAD', location, teacher.token);
  expect(head.headers.get('upload-offset')).toBe(String(size));
  expect(head.headers.get('upload-defer-length')).toBe('1');
  const rest = await sendRecording(teacher.token, location, recording, 4, size);
  expect(rest.status).toBe(204);

  const result = await h.api('GET', location, { as: teacher.token });
  expect(result.status).toBe(200);
  // Only the video: its topic is made when the teacher saves it.
  expect(result.json).toMatchObject({ videoId: id, masterPlaylist: `/media/videos/${id}/master.m3u8` });
  expect(result.json.lectureId).toBeUndefined();
  expect(Math.abs(result.json.video.durationSeconds - 7)).toBeLessThan(0.3);
  expect(await h.storage.list(RESUMABLE_PREFIX)).toEqual([]);

  // Trimmed at once, while its first transcode waits or runs: the untrimmed ladder is never the one published.
  const trimmed = await h.api('PATCH', `/api/videos/${id}/trim`, { as: teacher.token, body: { start: 1, end: 5 } });
  expect(trimmed.status).toBe(200);
  expect(trimmed.json).toMatchObject({ _id: id, status: 'queued', durationSeconds: 4 });
  const ready = await waitForVideo('the trimmed recording', videoOf(id), { timeoutMs: 90_000 });
  expect(ready).toMatchObject({ status: 'ready', durationSeconds: 4 });
  expect(Math.abs((await publishedSeconds(id)) - 4)).toBeLessThan(1);

  // The same trim again changes nothing (no new transcode); the whole length undoes it.
  await h.jobsSettled();
  const before = h.snapshot();
  const again = await h.api('PATCH', `/api/videos/${id}/trim`, { as: teacher.token, body: { start: 1, end: 5 } });
  expect(again.json).toMatchObject({ status: 'ready', durationSeconds: 4 });
  expect(h.snapshot()).toEqual(before);
  const whole = await h.api('PATCH', `/api/videos/${id}/trim`, { as: teacher.token, body: { start: 0, end: 7.5 } });
  expect(whole.json).toMatchObject({ status: 'queued', durationSeconds: 7 });
  await waitForVideo('the untrimmed recording', videoOf(id), { timeoutMs: 90_000 });
  expect(Math.abs((await publishedSeconds(id)) - 7)).toBeLessThan(1);

  // Save: the spec's own topic creation links the teacher's recording.
  const saved = await h.api('POST', '/api/lectures', {
    as: teacher.token,
    body: { courseId, nameOfTopic: 'Recorded', videoLink: result.json.masterPlaylist },
  });
  expect(saved.status).toBe(201);
  // Kept for a trim until a lecture shows it; then the sweep removes the original.
  expect(await h.storage.stat(sourceKey(id))).toBeDefined();
  await sweepMedia(h.deps);
  expect(await h.storage.stat(sourceKey(id))).toBeUndefined();

  // Now in use: it cannot be deleted, and (its original gone) no longer trimmed; a trim out of range is refused
  // before that. Nothing changes.
  await h.jobsSettled();
  const inUse = h.snapshot();
  for (const [name, response, status, code] of [
    [
      'delete a video a lecture shows',
      await h.api('DELETE', `/api/videos/${id}`, { as: teacher.token }),
      409,
      'video_in_use',
    ],
    [
      'trim past the end',
      await h.api('PATCH', `/api/videos/${id}/trim`, { as: teacher.token, body: { start: 2, end: 9 } }),
      400,
      'invalid_input',
    ],
    [
      'trim under a second',
      await h.api('PATCH', `/api/videos/${id}/trim`, { as: teacher.token, body: { start: 2, end: 2.5 } }),
      400,
      'invalid_input',
    ],
    [
      'trim from before the start',
      await h.api('PATCH', `/api/videos/${id}/trim`, { as: teacher.token, body: { start: -1, end: 3 } }),
      400,
      'invalid_input',
    ],
    [
      'trim end before start',
      await h.api('PATCH', `/api/videos/${id}/trim`, { as: teacher.token, body: { start: 5, end: 2 } }),
      400,
      'invalid_input',
    ],
    [
      'trim without its original',
      await h.api('PATCH', `/api/videos/${id}/trim`, { as: teacher.token, body: { start: 1, end: 3 } }),
      409,
      'trim_unavailable',
    ],
  ] as const) {
    expect({ name, status: response.status, code: response.json.code }).toEqual({ name, status, code });
  }
  expect(h.snapshot()).toEqual(inUse);
}, 240_000);

test('a recording is refused to students, in a class not taught, without `recording`, and its pieces to anyone else', async () => {
  const recording = readBytes(
    await makeRecordingClip(clips, { name: 'refused.webm', seconds: 3, flashAt: 1, container: 'webm' }),
  );
  const created = await createRecording(teacher.token, { courseId });
  const location = created.headers.get('location') as string;
  expect((await send(teacher.token, location, 0, recording.slice(0, 1000))).status).toBe(204);
  // A finished recording of the teacher's that no lecture shows (to be discarded by its owner only).
  const other = await createRecording(teacher.token, { courseId });
  await sendRecording(teacher.token, other.headers.get('location') as string, recording, 2);
  const videoId = (other.headers.get('location') as string).split('/').pop() as string;
  await waitForVideo('a recording', videoOf(videoId));
  const elsewhere = (await createClass(h, otherTeacher, 'Not yours')).id;
  await h.jobsSettled();
  const before = h.snapshot();
  const files = (await h.storage.list(RESUMABLE_PREFIX)).sort();
  const octets = { 'Content-Type': 'application/offset+octet-stream' };
  for (const [name, response, status, code] of [
    ['a student records', await createRecording(student.token, { courseId }), 403, 'forbidden'],
    [
      "a teacher records into another's class",
      await createRecording(otherTeacher.token, { courseId }),
      403,
      'forbidden',
    ],
    [
      'a class that does not exist',
      await createRecording(teacher.token, { courseId: 'no-such-class' }),
      403,
      'forbidden',
    ],
    ['a recording for no class', await createRecording(teacher.token, {}), 400, 'invalid_input'],
    [
      'no length, not a recording',
      await tus('POST', '/api/uploads', teacher.token, {
        'Upload-Defer-Length': '1',
        'Upload-Metadata': metadata({ filename: 'x.webm', courseId, nameOfTopic: 'Deferred' }),
      }),
      400,
      'length_required',
    ],
    [
      'another teacher sends a piece',
      await tus(
        'PATCH',
        location,
        otherTeacher.token,
        { 'Upload-Offset': '1000', ...octets },
        recording.slice(1000, 2000),
      ),
      404,
      'upload_not_found',
    ],
    [
      'a length over the limit',
      await tus(
        'PATCH',
        location,
        teacher.token,
        { 'Upload-Offset': '1000', 'Upload-Length': String(21 * 1024 * 1024), ...octets },
        new Uint8Array(0),
      ),
      413,
      'too_large',
    ],
    [
      'pieces past the limit',
      await tus(
        'PATCH',
        location,
        teacher.token,
        { 'Upload-Offset': '1000', ...octets },
        new Uint8Array(20 * 1024 * 1024),
      ),
      413,
      'too_large',
    ],
    [
      'another teacher deletes the video',
      await h.api('DELETE', `/api/videos/${videoId}`, { as: otherTeacher.token }),
      404,
      'video_not_found',
    ],
    [
      'another teacher trims it',
      await h.api('PATCH', `/api/videos/${videoId}/trim`, { as: otherTeacher.token, body: { start: 0, end: 1 } }),
      404,
      'video_not_found',
    ],
  ] as const) {
    const json = await (response instanceof Response ? response.json() : response.json);
    expect({ name, status: response.status, code: json.code }).toEqual({ name, status, code });
  }
  expect(elsewhere).toBeString();
  expect(h.snapshot()).toEqual(before);
  expect((await h.storage.list(RESUMABLE_PREFIX)).sort()).toEqual(files);
  expect((await tus('HEAD', location, teacher.token)).headers.get('upload-offset')).toBe('1000');

  // Discard: its owner deletes the unused recording, its files and jobs with it.
  const discarded = await h.api('DELETE', `/api/videos/${videoId}`, { as: teacher.token });
  expect(discarded.status).toBe(200);
  expect(discarded.json.message).toBeString();
  expect((await h.api('GET', `/api/videos/${videoId}`, { as: teacher.token })).status).toBe(404);
  expect(await h.storage.list(`videos/${videoId}`)).toEqual([]);
  expect(await h.storage.stat(sourceKey(videoId))).toBeUndefined();
  const left = h.snapshot();
  const jobsLeft = left.jobs as { subject_id: string | null; state: string }[];
  expect(jobsLeft.filter((job) => job.subject_id === videoId && ['queued', 'running'].includes(job.state))).toEqual([]);
  expect((await tus('DELETE', location, teacher.token)).status).toBe(204);
});

test('a recording longer than MAX_RECORDING_MINUTES (+30 s) is refused when it ends, and nothing is kept', async () => {
  // 95 s, tiny: over the one-minute limit and its 30 s grace.
  const long = join(clips, 'long.webm');
  const made = Bun.spawnSync([
    ...['ffmpeg', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=gray:s=64x48:r=2:d=95', '-f', 'lavfi'],
    ...['-i', 'anullsrc=r=48000:cl=mono', '-t', '95', '-c:v', 'libvpx', '-b:v', '20k', '-c:a', 'libopus'],
    ...['-b:a', '8k', '-f', 'webm', 'pipe:1'],
  ]);
  expect(made.exitCode).toBe(0);
  await Bun.write(long, made.stdout);
  const recording = readBytes(long);
  await h.jobsSettled();
  const before = h.snapshot();
  const originals = await h.storage.list(UPLOADS_PREFIX);
  const created = await createRecording(teacher.token, { courseId });
  expect(created.status).toBe(201);
  const last = await sendRecording(teacher.token, created.headers.get('location') as string, recording, 3);
  expect(last.status).toBe(413);
  expect((await last.json()).code).toBe('recording_too_long');
  expect(h.snapshot()).toEqual(before);
  expect(await h.storage.list(RESUMABLE_PREFIX)).toEqual([]);
  expect(await h.storage.list(UPLOADS_PREFIX)).toEqual(originals);
}, 60_000);
