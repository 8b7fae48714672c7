import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toWebVtt } from '../media/captions';
import { makeClip, readBytes, uploadForm } from '../test/fixtures';
import { type Account, type Harness, startHarness } from '../test/harness';
import { classScenario } from '../test/scenario';
import { expectRefused } from '../test/tables';
import { waitForVideo } from '../test/wait';

let h: Harness;
let clips: string;
let teacher: Account;
let otherTeacher: Account;
let student: Account;
let outsider: Account;
let lectureId: string;
let videoLink: string;

const SRT = `1
00:00:00,500 --> 00:00:02,000
Welcome to the lecture.

2
00:00:02,500 --> 00:00:04,000
Today: <i>waves</i>.
`;

const captionForm = (
  text: string,
  fields: Record<string, string> = { language: 'en', label: 'English' },
  name = 'a.srt',
) => {
  const form = new FormData();
  form.append('file', new File([text], name));
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
};

beforeAll(async () => {
  h = await startHarness();
  clips = mkdtempSync(join(tmpdir(), 'classroom-captions-'));
  const cast = await classScenario(h, {
    names: { teacher: 'Cara Captions', otherTeacher: 'Otto Other', student: 'Stu Dent', outsider: 'Oona Outside' },
    courseName: 'Waves',
  });
  ({ teacher, otherTeacher, student, outsider } = cast);
  const clip = await makeClip(clips, { width: 320, height: 240, seconds: 4 });
  const form = uploadForm(readBytes(clip), 'waves.mp4');
  form.append('courseId', cast.course?.id as string);
  form.append('nameOfTopic', 'Waves');
  const uploaded = await h.api('POST', '/api/upload', { as: teacher.token, body: form });
  if (uploaded.status !== 201) throw new Error(`setup: the upload failed (${uploaded.status}): ${uploaded.text}`);
  lectureId = uploaded.json.lectureId;
  await waitForVideo(
    'the uploaded clip',
    async () => (await h.api('GET', `/api/videos/${uploaded.json.videoId}`, { as: teacher.token })).json,
    { everyMs: 100 },
  );
  videoLink = (await h.api('GET', `/api/lectures/${lectureId}`, { as: student.token })).json.videoLink;
});
afterAll(async () => {
  await h?.close();
  rmSync(clips, { recursive: true, force: true });
});

describe('captions', () => {
  test('a teacher adds SRT captions: converted to WebVTT, listed on the lecture, in the master playlist, served to members', async () => {
    const added = await h.api('POST', `/api/lectures/${lectureId}/captions`, {
      as: teacher.token,
      body: captionForm(SRT),
    });
    expect(added.status).toBe(201);
    expect(added.json).toEqual({
      id: expect.any(String),
      language: 'en',
      label: 'English',
      url: `/api/lectures/${lectureId}/captions/${added.json.id}.vtt`,
    });
    const lecture = await h.api('GET', `/api/lectures/${lectureId}`, { as: student.token });
    expect(lecture.json.captions).toEqual([added.json]);

    const vtt = await h.api('GET', added.json.url, { as: student.token });
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toStartWith('text/vtt');
    expect(vtt.text).toStartWith('WEBVTT\n\n1\n00:00:00.500 --> 00:00:02.000\nWelcome to the lecture.');

    // Native HLS players (iPhone) find the captions in the master playlist of the lecture's video.
    const master = await h.api('GET', `${videoLink}?lecture=${lectureId}`, { as: student.token });
    expect(master.text).toContain(
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="cc",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI="/api/lectures/${lectureId}/captions/${added.json.id}.m3u8"`,
    );
    expect(master.text).toMatch(/#EXT-X-STREAM-INF:.*SUBTITLES="cc"/);
    expect((await h.api('GET', videoLink, { as: student.token })).text).not.toContain('SUBTITLES');
    const playlist = await h.api('GET', `/api/lectures/${lectureId}/captions/${added.json.id}.m3u8`, {
      as: student.token,
    });
    expect(playlist.text).toContain(`#EXTINF:4.0`);
    expect(playlist.text).toContain(`\n${added.json.id}.vtt\n#EXT-X-ENDLIST`);

    // The same language again replaces the file and label, and keeps the id.
    const replaced = await h.api('POST', `/api/lectures/${lectureId}/captions`, {
      as: teacher.token,
      body: captionForm('WEBVTT\n\n00:01.000 --> 00:03.000\nHello again.\n', { language: 'en', label: 'English (UK)' }),
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toEqual({ ...added.json, label: 'English (UK)' });
    expect((await h.api('GET', added.json.url, { as: student.token })).text).toContain('Hello again.');

    const german = await h.api('POST', `/api/lectures/${lectureId}/captions`, {
      as: teacher.token,
      body: captionForm(SRT, { language: 'de', label: 'Deutsch' }),
    });
    expect(german.status).toBe(201);
    expect((await h.api('GET', `/api/lectures/${lectureId}`, { as: student.token })).json.captions).toEqual([
      german.json,
      replaced.json,
    ]);

    const deleted = await h.api('DELETE', `/api/lectures/${lectureId}/captions/${german.json.id}`, {
      as: teacher.token,
    });
    expect(deleted.status).toBe(200);
    expect((await h.api('GET', german.json.url, { as: student.token })).status).toBe(404);
    expect((await h.api('GET', `/api/lectures/${lectureId}`, { as: student.token })).json.captions).toEqual([
      replaced.json,
    ]);
  });

  test('bad files are refused with the line that is wrong, and nothing changes', async () => {
    const path = `/api/lectures/${lectureId}/captions`;
    const badTiming = await expectRefused(h, {
      name: 'SRT timing with a letter',
      as: teacher.token,
      method: 'POST',
      path,
      body: captionForm('1\n00:00:01,000 --> 00:00:0x,000\nHi\n', { language: 'fr', label: 'Français' }),
      status: 400,
      field: 'file',
      code: 'bad_captions',
    });
    expect(badTiming.json.line).toBe(2);
    expect(badTiming.json.message).toStartWith('Line 2: ');
    const backwards = await expectRefused(h, {
      name: 'a cue that ends before it starts',
      as: teacher.token,
      method: 'POST',
      path,
      body: captionForm('WEBVTT\n\n00:01.000 --> 00:04.000\nfine\n\n00:05.000 --> 00:04.000\nback\n', {
        language: 'fr',
        label: 'Français',
      }),
      status: 400,
      field: 'file',
    });
    expect(backwards.json.line).toBe(6);
    const notCaptions = await expectRefused(h, {
      name: 'neither WebVTT nor SRT',
      as: teacher.token,
      method: 'POST',
      path,
      body: captionForm('These are my lecture notes.\n', { language: 'fr', label: 'Français' }),
      status: 400,
      field: 'file',
    });
    expect(notCaptions.json.message).toContain('neither a WebVTT file');
    for (const refusal of [
      { name: 'no cues', body: captionForm('WEBVTT\n'), field: 'file' },
      {
        name: 'no file',
        body: (() => {
          const f = new FormData();
          f.append('language', 'en');
          f.append('label', 'English');
          return f;
        })(),
        field: 'file',
      },
      { name: 'bad language', body: captionForm(SRT, { language: 'english!', label: 'English' }), field: 'language' },
      { name: 'no label', body: captionForm(SRT, { language: 'en', label: '  ' }), field: 'label' },
      { name: 'hidden characters', body: captionForm(SRT, { language: 'en', label: 'Eng\u202Elish' }), field: 'label' },
      { name: 'not UTF-8', body: captionForm('\xff\xfe', { language: 'en', label: 'English' }), field: undefined },
    ]) {
      await expectRefused(h, { ...refusal, as: teacher.token, method: 'POST', path, status: 400 });
    }
    await expectRefused(h, {
      name: 'over 1 MB',
      as: teacher.token,
      method: 'POST',
      path,
      body: captionForm(`WEBVTT\n\n${'00:01.000 --> 00:02.000\nx\n\n'.repeat(40_000)}`),
      status: 413,
    });
  });

  test('only the class teacher changes captions; only members read them', async () => {
    const caption = (await h.api('GET', `/api/lectures/${lectureId}`, { as: teacher.token })).json.captions[0];
    const path = `/api/lectures/${lectureId}/captions`;
    await expectRefused(h, {
      name: 'student adds',
      as: student.token,
      method: 'POST',
      path,
      body: captionForm(SRT),
      status: 403,
    });
    await expectRefused(h, {
      name: 'other teacher adds',
      as: otherTeacher.token,
      method: 'POST',
      path,
      body: captionForm(SRT),
      status: 404,
    });
    await expectRefused(h, { name: 'anonymous adds', method: 'POST', path, body: captionForm(SRT), status: 401 });
    await expectRefused(h, {
      name: 'student deletes',
      as: student.token,
      method: 'DELETE',
      path: `${path}/${caption.id}`,
      status: 403,
    });
    await expectRefused(h, {
      name: 'outsider deletes',
      as: outsider.token,
      method: 'DELETE',
      path: `${path}/${caption.id}`,
      status: 404,
    });
    expect((await h.api('GET', caption.url, { as: outsider.token })).status).toBe(404);
    expect((await h.api('GET', caption.url)).status).toBe(401);
    // Someone else's lecture id in the master's query lists nothing and reveals nothing.
    expect((await h.api('GET', `${videoLink}?lecture=${lectureId}`, { as: outsider.token })).status).toBe(404);
  });
});

describe('toWebVtt', () => {
  test('keeps WebVTT, converts SRT with Windows line ends and a byte-order mark', () => {
    const converted = toWebVtt('\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHi\r\n');
    expect(converted).toEqual({ vtt: 'WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.500\nHi\n', cues: 1 });
    expect(toWebVtt('WEBVTT - Lecture 3\n\n00:01.000 --> 00:02.000 align:start\nHi')).toEqual({
      vtt: 'WEBVTT - Lecture 3\n\n00:01.000 --> 00:02.000 align:start\nHi\n',
      cues: 1,
    });
  });
});
