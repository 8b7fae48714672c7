import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { segmentTokens } from '../media/segment-token';
import { mediaKey } from '../storage/keys';
import { makeClip, readBytes, uploadForm } from '../test/fixtures';
import { type Harness, startHarness } from '../test/harness';
import { startSecondServer } from '../test/second-server';
import { PRESIGN_SECONDS } from './media';

let clips: string;
beforeAll(() => {
  clips = mkdtempSync(join(tmpdir(), 'classroom-media-'));
});
afterAll(() => rmSync(clips, { recursive: true, force: true }));

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function waitFor(h: Harness, videoId: string, token: string, until: (status: string) => boolean) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const video = (await h.api('GET', `/api/videos/${videoId}`, { as: token })).json;
    if (until(video.status)) return video;
    if (Date.now() > deadline) throw new Error(`video ${videoId} stuck in ${video.status}`);
    await Bun.sleep(30);
  }
}

/** A second server process (src/test/second-server.ts) and a GET to it as someone. */
function otherServer(h: Harness) {
  const second = startSecondServer(h);
  return {
    ...second,
    get: (path: string, token: string, headers: Record<string, string> = {}) =>
      fetch(`${second.baseUrl}${path}`, { headers: { ...bearer(token), ...headers }, redirect: 'manual' }),
  };
}

describe.each(['local', 's3'] as const)('%s storage', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, { storage: driver });
  });
  afterAll(async () => {
    await h.close();
  });

  test('a video plays from another server process while it is transcoded (segments published as they finish)', async () => {
    const teacher = await h.signUp('teacher', `Grace Growing ${driver}`);
    const other = otherServer(h);
    try {
      const clip = await makeClip(clips, { width: 640, height: 360, seconds: 40, name: `long-${driver}.mp4` });
      const uploaded = await h.api('POST', '/api/upload', {
        as: teacher.token,
        body: uploadForm(readBytes(clip), 'lecture.mp4'),
      });
      expect(uploaded.status).toBe(201);
      const base = `/media/videos/${uploaded.json.videoId}`;

      // While the worker is at it, the other process answers the master, a cut rung playlist and its segments.
      let growing: string | undefined;
      const deadline = Date.now() + 60_000;
      while (!growing && Date.now() < deadline) {
        const master = await other.get(`${base}/master.m3u8`, teacher.token);
        if (master.status === 200) {
          const rung = await other.get(`${base}/0/index.m3u8`, teacher.token);
          const text = await rung.text();
          const status = (await h.api('GET', `/api/videos/${uploaded.json.videoId}`, { as: teacher.token })).json
            .status;
          if (rung.status === 200 && !text.includes('#EXT-X-ENDLIST') && status === 'processing') growing = text;
          else if (text.includes('#EXT-X-ENDLIST')) break;
        } else {
          expect(master.status).toBe(409);
        }
        await Bun.sleep(30);
      }
      if (!growing) throw new Error('never saw the video while it was being transcoded');
      expect(growing).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
      const segments = growing.split('\n').filter((line) => line.startsWith('seg_'));
      expect(segments.length).toBeGreaterThan(0);
      for (const segment of segments) {
        const answer = await other.get(`${base}/0/${segment}`, teacher.token, { range: 'bytes=0-99' });
        expect({ segment, status: answer.status }).toEqual({ segment, status: 206 });
        expect((await answer.arrayBuffer()).byteLength).toBe(100);
      }
      expect((await other.get(`${base}/0/init_0.mp4`, teacher.token)).status).toBe(200);

      await waitFor(h, uploaded.json.videoId, teacher.token, (status) => status === 'ready');
      const final = await (await other.get(`${base}/0/index.m3u8`, teacher.token)).text();
      expect(final).toContain('#EXT-X-ENDLIST');
      expect(final.split('\n').filter((line) => line.startsWith('seg_')).length).toBeGreaterThan(segments.length);
      // The serving process never wrote a media byte to its own disk.
      expect(readdirSync(other.scratch)).toEqual([]);
    } finally {
      await other.close();
    }
  }, 120_000);
});

describe('MEDIA_DELIVERY=redirect', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ MEDIA_DELIVERY: 'redirect' }, { storage: 's3' });
  });
  afterAll(async () => {
    await h.close();
  });

  test('segments answer a short-lived presigned URL after the access check; playlists still come from the app', async () => {
    const teacher = await h.signUp('teacher', 'Rita Redirect');
    const outsider = await h.signUp('student', 'Otto Outsider');
    const clip = await makeClip(clips, { width: 320, height: 240, seconds: 3, name: 'redirect.mp4' });
    const uploaded = await h.api('POST', '/api/upload', {
      as: teacher.token,
      body: uploadForm(readBytes(clip), 'lecture.mp4'),
    });
    const videoId = uploaded.json.videoId as string;
    await waitFor(h, videoId, teacher.token, (status) => status === 'ready');
    const base = `${h.baseUrl}/media/videos/${videoId}`;

    const rung = await fetch(`${base}/0/index.m3u8`, { headers: bearer(teacher.token), redirect: 'manual' });
    expect(rung.status).toBe(200);
    expect(await rung.text()).toContain('seg_00000.m4s');

    const answer = await fetch(`${base}/0/seg_00000.m4s`, { headers: bearer(teacher.token), redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const location = answer.headers.get('location') ?? '';
    expect(location.startsWith(h.s3?.endpoint ?? 'missing')).toBe(true);
    expect(location).toContain(`X-Amz-Expires=${PRESIGN_SECONDS}`);
    // The bucket answers ranges, with the bytes storage holds.
    const ranged = await fetch(location, { headers: { range: 'bytes=10-29' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-type')).toBe('video/iso.segment');
    const stored = await new Response(
      await h.storage.get(mediaKey(videoId, { kind: 'segment', rung: 0, index: 0 })),
    ).arrayBuffer();
    expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(new Uint8Array(stored.slice(10, 30)));
    expect((await fetch(`${base}/0/init_0.mp4`, { headers: bearer(teacher.token), redirect: 'manual' })).status).toBe(
      302,
    );

    // Refused before any URL is signed.
    for (const token of [outsider.token, undefined]) {
      const refused = await fetch(`${base}/0/seg_00000.m4s`, {
        headers: token ? bearer(token) : {},
        redirect: 'manual',
      });
      expect(refused.status).toBe(token ? 404 : 401);
      expect(refused.headers.get('location')).toBeNull();
    }
  });
});

describe('signed segment tokens', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ SEGMENT_TOKEN_SECONDS: '600' });
  });
  afterAll(async () => {
    await h.close();
  });

  test('the master points into a token folder; rung playlists and segments under it answer on the HMAC alone', async () => {
    const teacher = await h.signUp('teacher', 'Tess Token');
    const student = await h.signUp('student', 'Stan Student');
    const stranger = await h.signUp('student', 'Sue Stranger');
    const course = (await h.api('POST', '/api/courses', { as: teacher.token, body: { courseName: 'Tokens' } })).json;
    await h.api('POST', '/api/enrollments/join', { as: student.token, body: { inviteCode: course.inviteCode } });
    const clip = await makeClip(clips, { width: 320, height: 240, seconds: 3, name: 'token.mp4' });
    const uploaded = await h.api('POST', '/api/upload', {
      as: teacher.token,
      body: uploadForm(readBytes(clip), 'token.mp4'),
    });
    const videoId = uploaded.json.videoId as string;
    await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId: course._id, nameOfTopic: 'Signed', videoLink: uploaded.json.masterPlaylist },
    });
    await waitFor(h, videoId, teacher.token, (status) => status === 'ready');
    const base = `${h.baseUrl}/media/videos/${videoId}`;

    const master = await h.api('GET', `/media/videos/${videoId}/master.m3u8`, { as: student.token });
    expect(master.status).toBe(200);
    const rungUri = master.text.split('\n').find((line) => line.endsWith('/index.m3u8')) ?? '';
    const match = /^(\d+)\.([A-Za-z0-9_-]{22})\/0\/index\.m3u8$/.exec(rungUri);
    if (!match) throw new Error(`no token folder in ${rungUri}`);
    const expiry = Number(match[1]);
    expect(expiry * 1000 - Date.now()).toBeGreaterThan(590_000);
    expect(expiry * 1000 - Date.now()).toBeLessThanOrEqual(600_000);
    const folder = `${match[1]}.${match[2]}`;

    // No cookie, no bearer: the token is the credential, for the rung playlist and every file it names.
    const rung = await fetch(`${base}/${folder}/0/index.m3u8`);
    expect(rung.status).toBe(200);
    expect(rung.headers.get('cache-control')).toBe('no-cache');
    const files = (await rung.text()).split('\n').flatMap((line) => {
      const map = /URI="([^"]+)"/.exec(line);
      return map ? [map[1]] : line && !line.startsWith('#') ? [line] : [];
    });
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const answer = await fetch(`${base}/${folder}/0/${file}`, { headers: { range: 'bytes=0-9' } });
      expect({ file, status: answer.status }).toEqual({ file, status: 206 });
      // A shared cache may keep it (its key should leave the token folder out).
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }

    // A token folder leads to rung files only, and only of its own video.
    expect((await fetch(`${base}/${folder}/master.m3u8`)).status).toBe(404);
    expect((await fetch(`${base}/${folder}/poster.jpg`)).status).toBe(404);
    const other = await h.api('POST', '/api/upload', { as: teacher.token, body: uploadForm(readBytes(clip), 'b.mp4') });
    expect((await fetch(`${h.baseUrl}/media/videos/${other.json.videoId}/${folder}/0/index.m3u8`)).status).toBe(401);
    const forged = `${match[1]}.${match[2].slice(0, -1)}${match[2].endsWith('A') ? 'B' : 'A'}`;
    expect((await fetch(`${base}/${forged}/0/index.m3u8`)).status).toBe(401);
    const later = `${expiry + 3600}.${match[2]}`;
    expect((await fetch(`${base}/${later}/0/index.m3u8`)).status).toBe(401);

    // An expired token: the session and class checks decide, so a member's player keeps playing and a stranger's not.
    const expired = segmentTokens(h.config.jwtSecret, 600).issue(videoId, Date.now() - 700_000);
    expect((await fetch(`${base}/${expired}/0/seg_00000.m4s`)).status).toBe(401);
    expect(
      (await h.api('GET', `/media/videos/${videoId}/${expired}/0/seg_00000.m4s`, { as: student.token })).status,
    ).toBe(200);
    expect(
      (await h.api('GET', `/media/videos/${videoId}/${expired}/0/seg_00000.m4s`, { as: stranger.token })).status,
    ).toBe(404);

    // Removed from the class: the master is refused at once; the token already handed out works until it expires.
    const removed = await h.api('DELETE', `/api/courses/${course._id}/students/${student.user._id}`, {
      as: teacher.token,
    });
    expect(removed.status).toBe(200);
    expect((await h.api('GET', `/media/videos/${videoId}/master.m3u8`, { as: student.token })).status).toBe(404);
    expect((await fetch(`${base}/${folder}/0/seg_00000.m4s`)).status).toBe(200);
    expect(
      (await h.api('GET', `/media/videos/${videoId}/${expired}/0/seg_00000.m4s`, { as: student.token })).status,
    ).toBe(404);
  });
});
