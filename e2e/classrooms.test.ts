import { expect, test } from 'bun:test';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

const env = e2eEnvironment();

async function signUpInPage(page: Page, name: string, email: string, role: 'teacher' | 'student') {
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('a long enough password');
  if (role === 'teacher') await page.getByText('teacher', { exact: true }).click();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByLabel('Verification code').fill(await env.mail.codeFor(email));
  await page.getByRole('button', { name: 'Verify Email' }).click();
}

/** Reads the QR code the page drew on its canvas and decodes it. */
async function decodeQr(page: Page): Promise<string | undefined> {
  // The QR library loads when the panel opens: wait for its canvas.
  await page.getByRole('img', { name: 'QR code of the invite link' }).waitFor();
  const image = await page.evaluate(() => {
    const canvas = document.querySelector('canvas') as HTMLCanvasElement;
    const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height);
    return data ? { width: data.width, height: data.height, pixels: Array.from(data.data) } : undefined;
  });
  if (!image) return undefined;
  return jsQR(new Uint8ClampedArray(image.pixels), image.width, image.height)?.data;
}

test('a teacher shares a class by QR; a new student scans it, signs up and lands inside; rename and delete', async () => {
  const teacher = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await teacher.goto(`${env.server.baseUrl}/login`);
  await signUpInPage(teacher, 'Marie Curie', 'marie@example.test', 'teacher');
  await teacher.waitForURL('**/classroom');
  await teacher.getByRole('button', { name: 'Create a class' }).click();
  await teacher.getByLabel('Class name').fill('Physics 101');
  await teacher.getByLabel('Semester').fill('3');
  await teacher.getByRole('button', { name: 'Create Class', exact: true }).click();
  await teacher.getByRole('link', { name: /^Physics 101/ }).click();
  await teacher.getByRole('heading', { name: 'Physics 101' }).waitFor();
  await teacher.getByRole('button', { name: 'Share Classroom' }).click();
  await teacher.getByText('Scan to join the classroom').waitFor();
  const code = (await teacher.getByTestId('invite-code').textContent())?.trim() ?? '';
  expect(code).toMatch(/^[A-Z2-9]{7}$/);
  // The link shows once the server has said which address to share.
  await teacher.waitForFunction(() => (document.querySelector('#invite-link') as HTMLInputElement | null)?.value);
  const link = await teacher.getByLabel('Invite link', { exact: true }).inputValue();
  expect(link).toBe(`${env.server.baseUrl}/join/${code}`);
  // Opened at 127.0.0.1 without PUBLIC_URL (and a server that listens on loopback only): the panel says phones
  // cannot open this address.
  await teacher.getByTestId('share-warning').getByText('Phones cannot open "127.0.0.1"').waitFor();
  expect(await decodeQr(teacher)).toBe(link);
  await teacher.getByRole('button', { name: 'Copy invite link' }).click();
  await teacher.getByText('Link copied to clipboard!').waitFor();
  await screenshot(teacher, 'course-share-panel');
  await teacher.getByRole('button', { name: 'Hide Share' }).click();

  // A phone, logged out, opens the scanned link.
  const phone = await env.browser.newContext({ viewport: { width: 375, height: 812 } });
  const student = await phone.newPage();
  await student.goto(link);
  // The link names the class and its teacher, and offers a new account first, Log in beside it.
  await student.getByRole('heading', { name: "You're invited to Physics 101" }).waitFor();
  await student
    .getByText("Marie Curie's class. Create your account to join, or log in if you already have one.")
    .waitFor();
  await student.getByRole('link', { name: 'Create your account' }).waitFor();
  expect(await student.evaluate(() => localStorage.getItem('pendingInviteCode'))).toBe(code);
  await screenshot(student, 'join-invite-landing-phone');
  await student.getByRole('link', { name: 'Create your account' }).click();
  await student.waitForURL('**/signup');
  // The sign-up and sign-in screens name the class and its teacher too.
  await student.getByText("You're invited to Physics 101").waitFor();
  await student.getByText("Marie Curie's class. Create your account to join.").waitFor();
  // The password rule is on the form, read with the field.
  const hint = await student.getByLabel('Password', { exact: true }).getAttribute('aria-describedby');
  expect(await student.locator(`[id="${hint}"]`).textContent()).toBe('At least 8 characters.');
  await student.getByRole('link', { name: 'Log in' }).click();
  await student.waitForURL('**/login');
  await student.getByText("Marie Curie's class. Log in to join.").waitFor();
  await student.goto(`${env.server.baseUrl}/login`);
  await signUpInPage(student, 'Pierre Student', 'pierre@example.test', 'student');
  await student.getByText('You joined Physics 101').waitFor({ timeout: 15_000 });
  await student.getByRole('heading', { name: 'Physics 101' }).waitFor({ timeout: 15_000 });
  expect(new URL(student.url()).pathname).toStartWith('/classroom/');
  expect(await student.evaluate(() => localStorage.getItem('pendingInviteCode'))).toBeNull();
  await student.getByRole('textbox', { name: 'Course notes' }).fill('Remember: E = mc²');
  await student.getByRole('button', { name: 'Save Notes' }).click();
  await student.getByText('Note saved successfully').waitFor();
  await screenshot(student, 'course-student-phone');
  expect(await student.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  // On a phone the navigation is folded away behind the menu button.
  const folded = await student.getByRole('link', { name: 'Home' }).boundingBox();
  expect((folded?.x ?? 0) + (folded?.width ?? 0)).toBeLessThanOrEqual(0);
  await student.getByRole('button', { name: 'Expand navigation' }).click();
  await student.getByRole('link', { name: 'Home' }).click();
  await student.getByRole('link', { name: /^Physics 101/ }).waitFor();
  await screenshot(student, 'classroom-student-phone');
  await student.reload();
  await student.getByRole('link', { name: /^Physics 101/ }).waitFor();

  // A wrong code in the Join modal keeps it open with the red message.
  await student.getByRole('button', { name: 'Join class' }).click();
  await student.getByLabel('Class code').fill('NOPE234');
  await student.getByRole('button', { name: 'Join', exact: true }).click();
  await student.getByText('Failed to join classroom. Please check the class code.').waitFor();
  await student.getByRole('button', { name: 'Cancel' }).click();

  // The teacher renames and deletes the class from its card.
  await teacher.goto(`${env.server.baseUrl}/classroom`);
  await teacher.getByRole('button', { name: 'Options for Physics 101' }).click();
  await teacher.getByRole('button', { name: 'Edit' }).click();
  await teacher.getByLabel('Class title').fill('Physics 102');
  await teacher.getByRole('button', { name: 'Save' }).click();
  await teacher.getByRole('link', { name: /^Physics 102/ }).waitFor();
  await screenshot(teacher, 'classroom-teacher');
  await teacher.getByRole('button', { name: 'Options for Physics 102' }).click();
  await teacher.getByRole('button', { name: 'Delete', exact: true }).click();
  await teacher.getByRole('button', { name: 'Delete class' }).click();
  await teacher.getByText('No classes yet').waitFor();

  await student.reload();
  await student.getByText('No classes yet').waitFor();
  await phone.close();
  await teacher.close();
});

test('a dead invite says so before sign-in, offers "Enter a class code", and "Go Back" stays in the app', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  // Signed out: the link's page, then the login screen, say the link no longer works.
  await page.goto(`${env.server.baseUrl}/join/ZZZZ999`);
  await page.getByRole('heading', { name: 'This invite link no longer works' }).waitFor();
  await page.getByRole('link', { name: 'Log in' }).click();
  await page.waitForURL('**/login');
  await page.getByText('This invite link no longer works.').waitFor();
  await signUpInPage(page, 'Lost Student', 'lost@example.test', 'student');
  await page.getByRole('heading', { name: 'Error Joining Classroom' }).waitFor({ timeout: 15_000 });
  await page.getByText('No class has this code').waitFor();
  await screenshot(page, 'join-error');
  // Opened straight from a chat or a QR code: Go Back goes to the class list, not out of the app.
  await page.goto(`${env.server.baseUrl}/join/ZZZZ998`);
  await page.getByRole('heading', { name: 'Error Joining Classroom' }).waitFor();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await page.waitForURL('**/classroom');
  await page.goto(`${env.server.baseUrl}/join/ZZZZ997`);
  await page.getByRole('link', { name: 'Enter a class code' }).click();
  await page.getByRole('dialog').getByLabel('Class code').waitFor();
  await context.close();
});

test('class cards show a 22-character name whole, broken between words, at 768, 1024 and 1280', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Card Teacher', 'teacher');
  const student = await createAccount(env.server, env.mail, 'Card Student', 'student');
  const name = 'Introduction to Optics'; // 22 characters
  for (const courseName of [name, 'Algebra', 'Chemistry', 'Drawing', 'Economics']) {
    const course = await teacher.api('POST', '/api/courses', { courseName });
    await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  }
  for (const [who, token] of [
    ['teacher', teacher.token],
    ['student', student.token],
  ] as const) {
    for (const width of [768, 1024, 1280]) {
      const context = await signedInContext(env.browser, env.server, token, { width, height: 900 });
      const page = await context.newPage();
      await page.goto(`${env.server.baseUrl}/classroom`);
      const heading = page.getByRole('heading', { level: 2, name });
      await heading.waitFor();
      const shown = await heading.evaluate((h) => {
        // Whole: nothing clipped by the line clamp. Broken between words: each word's glyphs on one line.
        const clipped = h.scrollHeight > h.clientHeight + 1;
        // The name's own text (it may sit in a translate="no" span of its own).
        const text = document.createTreeWalker(h, NodeFilter.SHOW_TEXT).nextNode() as Text;
        const split: string[] = [];
        let at = 0;
        for (const word of (text.textContent ?? '').split(' ')) {
          const range = document.createRange();
          range.setStart(text, at);
          range.setEnd(text, at + word.length);
          const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (tops.size > 1) split.push(word);
          at += word.length + 1;
        }
        return { clipped, split, title: h.getAttribute('title') };
      });
      expect({ who, width, ...shown }).toEqual({ who, width, clipped: false, split: [], title: name });
      await context.close();
    }
  }
}, 120_000);

test("the teacher's table at 375 and 1280 px: a phone shows one lecture at a time, and everything stays inside the card", async () => {
  const teacher = await createAccount(env.server, env.mail, 'Petra Progress', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Chemistry 210' });
  const lecture = await teacher.api('POST', '/api/lectures', {
    courseId: course._id,
    nameOfTopic: 'Titration with indicators and a very long topic name',
  });
  for (const name of ['Maximilian Longnamesson', 'Bo Short']) {
    const pupil = await createAccount(env.server, env.mail, name, 'student');
    await pupil.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  }
  for (const width of [375, 1280]) {
    const context = await signedInContext(env.browser, env.server, teacher.token, { width, height: 900 });
    const page = await context.newPage();
    await page.goto(`${env.server.baseUrl}/classroom/${course._id}`);
    // The card (its table's scroll box is a region of the same name, which the keyboard reaches).
    const section = page.getByTestId('insight');
    const rows = section.getByTestId('insight-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    const layout = await section.evaluate((card) => {
      const box = card.getBoundingClientRect();
      const inside = (element: Element) => {
        const rect = element.getBoundingClientRect();
        return rect.left >= box.left - 0.5 && rect.right <= box.right + 0.5;
      };
      return {
        // Nothing scrolls sideways (the card, the table's scroll box), and every cell is inside.
        scrolls: [card, ...card.querySelectorAll('div')]
          .filter((element) => element.scrollWidth > element.clientWidth + 1)
          .map((element) => element.className),
        outside: [...card.querySelectorAll('td, th')].filter((element) => !inside(element)).length,
        columns: card.querySelectorAll('thead th').length,
      };
    });
    // A student column and the one lecture.
    expect({ width, ...layout }).toEqual({ width, scrolls: [], outside: 0, columns: 2 });
    if (width === 375) {
      // On a phone the lecture is chosen, never "all lectures" side by side.
      const choice = section.getByTestId('insight-lecture');
      expect(await choice.inputValue()).toBe(lecture._id);
      expect(await choice.locator('option[value=""]').count()).toBe(0);
    }
    await screenshot(page, `teacher-progress-${width}`);
    await context.close();
  }
}, 120_000);

test('the invite link never breaks inside the class code, on the share page and in the class page’s panel', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Lina Linkwrap', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Astronomy 305' });
  /** Where the textarea's lines break: the same text laid out in a box of the same font, width and wrapping. */
  const codeLines = (page: Page) =>
    page.evaluate((code) => {
      const box = document.querySelector('#invite-link') as HTMLTextAreaElement;
      const style = getComputedStyle(box);
      const mirror = document.createElement('div');
      for (const name of ['font', 'letterSpacing', 'whiteSpace', 'overflowWrap', 'lineBreak', 'wordBreak', 'boxSizing'])
        mirror.style.setProperty(
          name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
          style.getPropertyValue(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)),
        );
      mirror.style.width = `${box.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight)}px`;
      mirror.style.position = 'absolute';
      mirror.textContent = box.value;
      document.body.append(mirror);
      const text = mirror.firstChild as Text;
      const topOf = (index: number) => {
        const range = document.createRange();
        range.setStart(text, index);
        range.setEnd(text, index + 1);
        return Math.round(range.getBoundingClientRect().top);
      };
      const start = box.value.length - code.length;
      const tops = new Set(Array.from({ length: code.length }, (_, i) => topOf(start + i)));
      const lines = new Set(Array.from({ length: box.value.length }, (_, i) => topOf(i))).size;
      mirror.remove();
      return { codeOnOneLine: tops.size === 1, lines, fits: box.scrollHeight <= box.clientHeight + 1 };
    }, course.inviteCode);
  // The server's own address, a LAN address and a long public name: each wraps at some width.
  const wrapped: number[] = [];
  for (const publicUrl of [null, 'http://192.168.100.123:3000', 'https://classroom.riverside-secondary.example.org']) {
    for (const width of [375, 768, 1024, 1280]) {
      const context = await signedInContext(env.browser, env.server, teacher.token, { width, height: 900 });
      const page = await context.newPage();
      await page.route('**/api/app', async (route) => {
        const real = await route.fetch();
        const json = await real.json();
        await route.fulfill({ response: real, json: publicUrl ? { ...json, publicUrl } : json });
      });
      await page.goto(`${env.server.baseUrl}/share/${course._id}`);
      await page.waitForFunction(() => (document.querySelector('#invite-link') as HTMLTextAreaElement | null)?.value);
      const onPage = await codeLines(page);
      await page.goto(`${env.server.baseUrl}/classroom/${course._id}`);
      await page.getByRole('button', { name: 'Share Classroom' }).click();
      await page.waitForFunction(() => (document.querySelector('#invite-link') as HTMLTextAreaElement | null)?.value);
      const inPanel = await codeLines(page);
      wrapped.push(onPage.lines, inPanel.lines);
      expect({
        publicUrl,
        width,
        onPage: onPage.codeOnOneLine && onPage.fits,
        inPanel: inPanel.codeOnOneLine && inPanel.fits,
      }).toEqual({ publicUrl, width, onPage: true, inPanel: true });
      if (width === 768 && publicUrl?.startsWith('https')) await screenshot(page, 'share-panel-long-link-768');
      await context.close();
    }
  }
  expect(Math.max(...wrapped)).toBeGreaterThan(1);
}, 120_000);
