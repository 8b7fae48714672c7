import { afterEach, beforeAll, expect, test } from 'bun:test';
import { classWithTopic, type FilePart, postForm } from '@test/lecture';
import { renderInApp, signInAs } from '@test/render';
import { realServer } from '@test/server';
import { clearToasts, showToasts } from '@test/toasts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Lecture } from '../api/lectures';
import { CaptionsEditor } from './CaptionsEditor';

const server = realServer();
beforeAll(showToasts);
afterEach(clearToasts);
let teacher: Awaited<ReturnType<typeof server.signUp>>;
let courseId: string;
let lectureId: string;
beforeAll(async () => {
  teacher = await server.signUp('teacher', 'Captioning Teacher');
  const made = await classWithTopic(server, teacher, 'Linguistics 101', 'Phonetics');
  courseId = made.course._id;
  lectureId = made.lectureId;
});

const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHello.\n';
const vttPart: FilePart = { fileName: 'hello.vtt', type: 'text/vtt', bytes: new TextEncoder().encode(vtt) };
const captionsPath = () => `/api/lectures/${lectureId}/captions`;

/** The topic as the class's list gives it (what the Edit Topic modal passes). */
async function lectureOnServer(): Promise<Lecture> {
  const lectures = (await server.api('GET', `/api/lectures/course/${courseId}`, undefined, teacher.token)).json;
  return lectures.find((lecture: Lecture) => lecture._id === lectureId);
}

/** The words the server refuses these captions with (its 400's `fields`). */
async function serverWordsFor(parts: Record<string, string | FilePart>) {
  const refusal = await postForm(server, captionsPath(), teacher.token, parts);
  expect(refusal.status).toBe(400);
  return refusal.json.fields as Record<string, string>;
}

/** The words a field is described by, once it is invalid. */
function problemOf(field: HTMLElement) {
  expect(field.getAttribute('aria-invalid')).toBe('true');
  return document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;
}

test("an empty form says under each field what it needs, in the server's words, and sends nothing", async () => {
  const user = userEvent.setup({ delay: null });
  const noFile = await serverWordsFor({ language: '', label: '' });
  const blank = await serverWordsFor({ file: vttPart, language: '', label: '' });
  const before = await server.requests('POST', captionsPath());
  signInAs(teacher);
  renderInApp(<CaptionsEditor lecture={await lectureOnServer()} />);
  await user.click(screen.getByRole('button', { name: 'Add captions' }));
  expect(await screen.findByText(noFile.file)).toBeDefined();
  expect(problemOf(screen.getByLabelText('Caption file (.vtt or .srt)'))).toBe(noFile.file);
  expect(problemOf(screen.getByLabelText('Language code'))).toBe(blank.language);
  expect(problemOf(screen.getByLabelText('Label students see'))).toBe(blank.label);
  expect(await server.requests('POST', captionsPath())).toBe(before);
});

test("a language that is no language code is said under it in the server's words and not sent; a good one goes", async () => {
  const user = userEvent.setup({ delay: null });
  const words = await serverWordsFor({ file: vttPart, language: 'English', label: 'English' });
  expect(Object.keys(words)).toEqual(['language']);
  const before = await server.requests('POST', captionsPath());
  signInAs(teacher);
  renderInApp(<CaptionsEditor lecture={await lectureOnServer()} />);
  await user.upload(
    screen.getByLabelText('Caption file (.vtt or .srt)'),
    new File([vtt], 'hello.vtt', { type: 'text/vtt' }),
  );
  await user.type(screen.getByLabelText('Language code'), 'English');
  await user.clear(screen.getByLabelText('Label students see'));
  await user.type(screen.getByLabelText('Label students see'), 'English');
  await user.click(screen.getByRole('button', { name: 'Add captions' }));
  expect(await screen.findByText(words.language)).toBeDefined();
  expect(problemOf(screen.getByLabelText('Language code'))).toBe(words.language);
  expect(screen.getByLabelText('Label students see').getAttribute('aria-invalid')).toBeNull();
  expect(await server.requests('POST', captionsPath())).toBe(before);
  expect((await lectureOnServer()).captions).toEqual([]);

  await user.clear(screen.getByLabelText('Language code'));
  await user.type(screen.getByLabelText('Language code'), 'en');
  await user.click(screen.getByRole('button', { name: 'Add captions' }));
  expect(await screen.findByText('Captions added: English')).toBeDefined();
  expect(screen.getByRole('button', { name: 'Delete captions English' })).toBeDefined();
  expect(screen.getByLabelText('Language code').getAttribute('aria-invalid')).toBeNull();
  expect(await server.requests('POST', captionsPath())).toBe(before + 1);
  expect((await lectureOnServer()).captions.map((caption) => caption.language)).toEqual(['en']);
});
