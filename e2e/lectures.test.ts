import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS } from '../src/contract/limits';
import { makeClip } from '../src/test/fixtures';
import { waitForVideo } from '../src/test/wait';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, screenshotDir, signedInContext } from './server';

const env = e2eEnvironment();
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-clips-'));

afterAll(async () => {
  rmSync(clips, { recursive: true, force: true });
});

test('a teacher adds a topic with a video, watches it get ready, renames it, replaces its video and deletes it', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Ada Lecturer', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Computing 101' });
  const first = await makeClip(clips, { width: 640, height: 360, seconds: 8, name: 'first.mp4' });
  const second = await makeClip(clips, { width: 480, height: 360, seconds: 4, name: 'second.mp4' });

  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${course._id}`);
  await page.getByRole('button', { name: 'Add New Topic' }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Please provide both a topic name and a video file.').waitFor();
  await page.getByLabel('Topic Name').fill('The Analytical Engine');
  await page.getByLabel('Video File').setInputFiles(first);
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  // The upload runs in the tray; the topic then shows its processing state, becomes ready (its length shows) and
  // plays.
  await page.getByTestId('upload-tray').waitFor();
  const playlist = page.getByRole('region', { name: 'Course Playlist' });
  const item = playlist.getByRole('listitem').filter({ hasText: 'The Analytical Engine' });
  await item.waitFor();
  await item.getByText(/Waiting to process|Processing \d+%|0:08/).waitFor();
  await screenshot(page, 'topic-processing');
  await item.getByText('0:08').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Play', exact: true }).first().waitFor();
  expect(await item.locator('img').getAttribute('src')).toContain('/poster.jpg');
  await screenshot(page, 'topic-ready');

  await page.getByRole('button', { name: 'Actions for The Analytical Engine' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await page.getByRole('dialog').getByText('first.mp4').waitFor();
  await page.getByLabel('Topic Name').fill('');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Please provide a topic name.').waitFor();
  await page.getByLabel('Topic Name').fill('Difference Engines');
  await page.getByLabel('Update video').check();
  await page.getByLabel('New video file').setInputFiles(second);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const renamed = playlist.getByRole('listitem').filter({ hasText: 'Difference Engines' });
  await renamed.getByText('0:04').waitFor({ timeout: 60_000 });
  const lectures = await teacher.api('GET', `/api/lectures/course/${course._id}`);
  expect(lectures).toHaveLength(1);
  expect(lectures[0].video.fileName).toBe('second.mp4');

  await page.getByRole('button', { name: 'Actions for Difference Engines' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByText('Are you sure you want to delete this lecture?').waitFor();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByText('No topics yet.').waitFor();
  // The empty class gives the teacher one clear call to action.
  await page.getByRole('button', { name: 'Add the first lecture' }).click();
  await page.getByRole('dialog', { name: 'Add New Topic' }).waitFor();
  await page.keyboard.press('Escape');
  expect(await teacher.api('GET', `/api/lectures/course/${course._id}`)).toEqual([]);
  await context.close();
});

test('a file that is not a video is refused at once, in plain words', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Bad File Teacher', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Uploads' });
  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${course._id}`);
  await page.getByRole('button', { name: 'Add New Topic' }).click();
  await page.getByLabel('Topic Name').fill('Oops');
  await page
    .getByLabel('Video File')
    .setInputFiles({ name: 'notes.mp4', mimeType: 'video/mp4', buffer: Buffer.from('not a video at all') });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  // In the modal, and in the tray as an alert; no topic is made.
  await page.getByRole('dialog').getByText('This file is not a video we can play.').waitFor();
  await page.getByTestId('upload-tray').getByRole('alert').getByText('This file is not a video we can play.').waitFor();
  expect(await teacher.api('GET', `/api/lectures/course/${course._id}`)).toEqual([]);
  await context.close();
});

test('the teacher writes chapters in the description in Edit Topic: the student sees them listed, as seek-bar ticks and in the description; a bad one is refused by the field and changes nothing', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Dora Describer', 'teacher');
  const student = await createAccount(env.server, env.mail, 'Sid Student', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Optics 110' });
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  const form = new FormData();
  form.append(
    'uploadedFile',
    Bun.file(await makeClip(clips, { width: 640, height: 360, seconds: 30, name: 'lens.mp4' })),
  );
  form.append('courseId', course._id);
  form.append('nameOfTopic', 'Lenses');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  await waitForVideo('lens', () => teacher.api('GET', `/api/videos/${uploaded.videoId}`));
  const lecturePage = `${env.server.baseUrl}/classroom/${course._id}?lecture=${uploaded.lectureId}`;
  const description = 'Plan for today\n0:00 Introduction\n0:10 Worked example\n0:20 Summary';

  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  const openEdit = async () => {
    // The menu follows its button when the page scrolls (Playwright scrolls the button into view to click it).
    const dialog = page.getByRole('dialog', { name: 'Edit Topic' });
    await page.getByRole('button', { name: 'Actions for Lenses' }).click();
    await page.getByRole('menu', { name: 'Actions for Lenses' }).getByRole('menuitem', { name: 'Edit' }).click();
    await dialog.getByText('lens.mp4').waitFor();
    return dialog;
  };
  await page.goto(lecturePage);
  let dialog = await openEdit();
  const field = dialog.getByRole('textbox', { name: 'Description (optional)' });
  expect(await field.getAttribute('maxlength')).toBe(String(LIMITS.descriptionMax));
  expect(await field.getAttribute('aria-describedby')).toBeTruthy();
  await dialog.getByText('Lines that start with a time, such as 0:00 Introduction, become chapters.').waitFor();
  await field.fill(description);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Topic saved').waitFor();
  await dialog.waitFor({ state: 'hidden' });
  const saved = await teacher.api('GET', `/api/lectures/${uploaded.lectureId}`);
  expect(saved.description).toBe(description);
  expect(saved.chapters).toEqual([
    { seconds: 0, title: 'Introduction' },
    { seconds: 10, title: 'Worked example' },
    { seconds: 20, title: 'Summary' },
  ]);

  // A second time before the first: the server's sentence by the field, the dialog stays, nothing changes.
  dialog = await openEdit();
  await expect(dialog.getByTestId('chapters-source').textContent()).resolves.toContain(
    'timed lines in the description',
  );
  expect(await field.inputValue()).toBe(description);
  await field.fill('Plan for today\n0:00 Introduction\n0:20 Worked example\n0:10 Summary');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  const refusal = 'Line 4: chapters must be in order of time (0:10 comes after 0:20).';
  await dialog.getByRole('alert').filter({ hasText: refusal }).waitFor();
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  expect(await field.getAttribute('aria-describedby')).toContain(
    (await dialog.getByRole('alert').filter({ hasText: refusal }).getAttribute('id')) as string,
  );
  expect(await teacher.api('GET', `/api/lectures/${uploaded.lectureId}`)).toEqual(saved);
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, 'edit-topic-description-refused-1280.png') });

  // Edit Topic at a phone's width and a desktop's: the dialog scrolls as one (no box scrolling inside it) and its
  // buttons can be reached.
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await page.goto(lecturePage);
    dialog = await openEdit();
    await field.fill(`${description}\n${'More words about lenses. '.repeat(40)}`);
    const nested = await dialog.evaluate((box) =>
      [...box.querySelectorAll('*')]
        .filter((element) => {
          const { overflowY } = getComputedStyle(element);
          return /auto|scroll/.test(overflowY) && element.scrollHeight > element.clientHeight + 1;
        })
        .map((element) => `${element.tagName} ${element.getAttribute('aria-label') ?? ''}`),
    );
    expect(nested).toEqual([]);
    for (const name of ['Save', 'Cancel']) {
      const button = dialog.getByRole('button', { name, exact: true }).first();
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox()) as { x: number; y: number; width: number; height: number };
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(box.y + box.height).toBeLessThanOrEqual(width === 375 ? 812 : 800);
    }
    // What the screen shows (a full-page shot would cut the fixed dialog): its top, then scrolled to its end.
    for (const [part, top] of [
      ['top', 0],
      ['end', 100_000],
    ] as const) {
      await dialog.evaluate((box, y) => box.scrollTo({ top: y }), top);
      await page.screenshot({ path: join(screenshotDir, `edit-topic-description-${width}-${part}.png`) });
    }
    await page.keyboard.press('Escape');
  }
  await context.close();

  // The student: the chapters listed, two ticks on the seek bar (the bar starts at 0:00), the description with its
  // line breaks, a timed line jumping there.
  const asStudent = await signedInContext(env.browser, env.server, student.token);
  const studentPage = await asStudent.newPage();
  await studentPage.goto(lecturePage);
  const list = studentPage.getByRole('list', { name: 'Chapters' });
  await list.waitFor();
  expect(await list.getByRole('button').allInnerTexts()).toEqual([
    expect.stringMatching(/0:00\s+Introduction/),
    expect.stringMatching(/0:10\s+Worked example/),
    expect.stringMatching(/0:20\s+Summary/),
  ]);
  await studentPage.getByTestId('seek-marks').waitFor({ state: 'attached' });
  expect(await studentPage.locator('[data-testid="seek-marks"] [data-kind="chapter"]').count()).toBe(2);
  const shown = studentPage.getByTestId('lecture-description');
  // biome-ignore lint/performance/useDomNodeTextContent: the line breaks as shown are what is checked
  expect(await shown.innerText()).toBe(description);
  await shown.getByRole('button', { name: 'Play from 0:10' }).click();
  await studentPage.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) >= 9.5, undefined, {
    timeout: 20_000,
  });
  await screenshot(studentPage, 'lecture-description-1280');
  await asStudent.close();
}, 120_000);

test('Reply and Show more are targets of 24 px at least, 44 px on a touch screen; a comment shows its long date and how long ago', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Tara Targets', 'teacher');
  const student = await createAccount(env.server, env.mail, 'Tim Tapper', 'student');
  const classmate = await createAccount(env.server, env.mail, 'Cleo Classmate', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Biology 120' });
  for (const pupil of [student, classmate]) {
    await pupil.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  }
  const lecture = await teacher.api('POST', '/api/lectures', {
    courseId: course._id,
    nameOfTopic: 'Cells',
    description: Array.from({ length: 12 }, (_, line) => `Reading ${line + 1}: chapter ${line + 3} of the book`).join(
      '\n',
    ),
  });
  const posted = await classmate.api('POST', `/api/lectures/${lecture._id}/comments`, { text: 'Which page?' });
  const lecturePage = `${env.server.baseUrl}/classroom/${course._id}?lecture=${lecture._id}`;

  // A mouse (pointer: fine), then a phone's touch screen (pointer: coarse).
  for (const { touch, least } of [
    { touch: false, least: 24 },
    { touch: true, least: 44 },
  ]) {
    const context = await env.browser.newContext({
      viewport: touch ? { width: 375, height: 812 } : { width: 1280, height: 800 },
      hasTouch: touch,
      isMobile: touch,
    });
    await context.addCookies([{ name: 'token', value: student.token, url: env.server.baseUrl }]);
    const page = await context.newPage();
    await page.goto(lecturePage);
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(touch);
    const reply = page.getByRole('button', { name: 'Reply to Cleo Classmate' });
    const more = page.getByRole('button', { name: 'Show more' });
    for (const target of [reply, more]) {
      const box = await target.boundingBox();
      expect(Math.min(box?.width ?? 0, box?.height ?? 0)).toBeGreaterThanOrEqual(least);
    }
    // The spec's long date with hours and minutes, in the language on screen (Intl), with how long ago beside it;
    // AM/PM keeps to its time (a no-break space).
    const longDate = await page.evaluate(
      (iso) =>
        new Date(iso)
          .toLocaleString(document.documentElement.lang, {
            year: 'numeric',
            month: 'long',
            day: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
          })
          .replace(/\s+(AM|PM)$/, '\u00a0$1'),
      posted.createdAt,
    );
    const when = page.getByTestId('comment').locator('time');
    expect(await when.getAttribute('datetime')).toBe(posted.createdAt);
    expect(await when.textContent()).toMatch(
      new RegExp(`^${longDate.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · (just now|\\d+ minutes? ago)$`),
    );
    if (touch) await screenshot(page, 'comment-targets-touch-375');
    await context.close();
  }
}, 120_000);
