import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type Harness, startHarness, TEST_PASSWORD } from '../test/harness';
import { expectRefused } from '../test/tables';

/** The threats of docs/accounts.md, each played against the real server. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { worker: false });
});
afterAll(() => h.close());

const VICTIM_PASSWORD = 'the victim chose this';
const ATTACKER_PASSWORD = 'the attacker chose this';

/** The `name=value` of a cookie the answer set. */
const cookieFrom = (headers: Headers, name: string) =>
  headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .find((pair) => pair.startsWith(`${name}=`) && pair.length > name.length + 1);

async function register(email: string, password: string, name: string) {
  const result = await h.api('POST', '/api/users/register', { body: { username: name, email, password } });
  expect(result.status).toBe(201);
  return cookieFrom(result.headers, 'signup') as string;
}
const verify = (email: string, otp: string, cookie?: string) =>
  h.api('POST', '/api/users/verify-otp', { body: { email, otp }, headers: cookie ? { cookie } : {} });
const login = (email: string, password: string, cookie?: string) =>
  h.api('POST', '/api/users/login', { body: { email, password }, headers: cookie ? { cookie } : {} });
/** What a minute later looks like to the mail cap. */
const aMinuteLater = (email: string) => {
  h.limits.codeMailMinute.reset(`signup:${email}`);
  h.limits.codeMailMinute.reset(`reset:${email}`);
};

describe('sign-up takeover', () => {
  test("victim first: the attacker's code, though the newest in the mailbox, cannot verify in the victim's browser", async () => {
    const email = 'victim1@example.test';
    const victimCookie = await register(email, VICTIM_PASSWORD, 'Vic Tim');
    const victimCode = await h.mail.nthCode(email, 1);
    aMinuteLater(email);
    await register(email, ATTACKER_PASSWORD, 'Mallory');
    const attackerCode = await h.mail.nthCode(email, 2);
    expect(h.mail.mailsTo(email)[1].text).toContain('Someone else has also started a sign-up');

    const inVictimsBrowser = await verify(email, attackerCode, victimCookie);
    expect(inVictimsBrowser.status).toBe(400);
    expect(inVictimsBrowser.json.code).toBe('code_of_other_signup');

    const verified = await verify(email, victimCode, victimCookie);
    expect(verified.status).toBe(200);
    expect((await login(email, VICTIM_PASSWORD)).status).toBe(200);
    expect((await login(email, ATTACKER_PASSWORD)).status).toBe(401);
    // The attacker's code died with the sign-up.
    expect((await verify(email, attackerCode)).status).toBe(400);
  });

  test("attacker first: the victim signs up and verifies with the newest code, and it is the victim's password", async () => {
    const email = 'victim2@example.test';
    const attackerCookie = await register(email, ATTACKER_PASSWORD, 'Mallory');
    const attackerCode = await h.mail.nthCode(email, 1);
    aMinuteLater(email);
    const victimCookie = await register(email, VICTIM_PASSWORD, 'Vic Tim');
    const victimCode = await h.mail.nthCode(email, 2);
    // The older code (the attacker's) typed by the victim is refused too.
    expect((await verify(email, attackerCode, victimCookie)).json.code).toBe('code_of_other_signup');
    const verified = await verify(email, victimCode, victimCookie);
    expect(verified.status).toBe(200);
    expect(verified.json.user.username).toBe('Vic Tim');
    expect((await login(email, ATTACKER_PASSWORD, attackerCookie)).status).toBe(401);
    expect((await login(email, VICTIM_PASSWORD)).status).toBe(200);
  });

  test('alone, a sign-up verifies from any device (no cookie needed)', async () => {
    const email = 'phone@example.test';
    await register(email, VICTIM_PASSWORD, 'Pho Ne');
    expect((await verify(email, await h.mail.nthCode(email, 1))).status).toBe(200);
  });
});

describe('codes and code mail', () => {
  test('a new code mail goes out at most once a minute, whichever route asks', async () => {
    const email = 'mailcap@example.test';
    await register(email, VICTIM_PASSWORD, 'Cap');
    const again = await h.api('POST', '/api/users/register', {
      body: { username: 'Cap', email, password: VICTIM_PASSWORD },
    });
    expect(again.status).toBe(429);
    expect(again.json.error).toMatch(/wait \d+ seconds/);
    expect((await h.api('POST', '/api/users/resend-otp', { body: { email } })).status).toBe(429);
    const unverifiedLogin = await login(email, VICTIM_PASSWORD);
    expect(unverifiedLogin.status).toBe(403);
    // A reset code is another kind of code (and this address has no account to reset).
    expect((await h.api('POST', '/api/users/forgot-password', { body: { email } })).status).toBe(200);
    await Bun.sleep(300);
    expect(h.mail.mailsTo(email)).toHaveLength(1);
    // …and ten codes of any kind an hour (the sign-up and the reset request were two).
    for (let i = 0; i < 8; i++) {
      aMinuteLater(email);
      expect((await h.api('POST', '/api/users/resend-otp', { body: { email } })).status).toBe(200);
    }
    aMinuteLater(email);
    const eleventh = await h.api('POST', '/api/users/resend-otp', { body: { email } });
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  test('guesses per address stay in the tens an hour, however many fresh codes a new sign-up brings', async () => {
    const email = 'guess@example.test';
    let wrong = 0;
    for (let round = 0; round < 4; round++) {
      aMinuteLater(email);
      await register(email, VICTIM_PASSWORD, 'Guess');
      for (let i = 0; i < 5; i++) {
        const result = await verify(email, String(100000 + wrong));
        expect(result.status).toBe(400);
        wrong++;
      }
    }
    expect(wrong).toBe(20);
    aMinuteLater(email);
    await register(email, VICTIM_PASSWORD, 'Guess');
    const capped = await verify(email, '123456');
    expect(capped.status).toBe(429);
    expect(capped.json.error).toContain('wrong codes');
  });

  test('a code is void after 5 wrong tries', async () => {
    const email = 'five@example.test';
    await register(email, VICTIM_PASSWORD, 'Five');
    const code = await h.mail.nthCode(email, 1);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push((await verify(email, wrongCode)).json.error);
    expect(answers[0]).toBe('That code is not right. 4 tries left.');
    expect(answers[4]).toBe('Too many wrong codes. Please ask for a new one.');
    expect((await verify(email, code)).json.code).toBe('code_used_up');
  });
});

describe('answers that reveal no account', () => {
  test('register, verify, resend and forgot-password answer alike for an account and for nobody', async () => {
    const owner = await h.signUp('student', 'Known Owner');
    aMinuteLater(owner.email);
    const pairs = [
      [
        'POST',
        '/api/users/register',
        { username: 'X Y', email: owner.email, password: 'whatever123' },
        { username: 'X Y', email: 'nobody1@example.test', password: 'whatever123' },
      ],
      ['POST', '/api/users/resend-otp', { email: owner.email }, { email: 'nobody2@example.test' }],
      ['POST', '/api/users/forgot-password', { email: owner.email }, { email: 'nobody3@example.test' }],
      [
        'POST',
        '/api/users/verify-otp',
        { email: owner.email, otp: '123456' },
        { email: 'nobody4@example.test', otp: '123456' },
      ],
      [
        'POST',
        '/api/users/reset-password',
        { email: owner.email, otp: '123456', newPassword: 'new password 1' },
        { email: 'nobody5@example.test', otp: '123456', newPassword: 'new password 1' },
      ],
    ] as const;
    for (const [method, path, forAccount, forNobody] of pairs) {
      aMinuteLater(owner.email);
      const account = await h.api(method, path, { body: forAccount });
      const nobody = await h.api(method, path, { body: forNobody });
      expect({ path, status: account.status, body: { ...account.json, email: undefined } }).toEqual({
        path,
        status: nobody.status,
        body: { ...nobody.json, email: undefined },
      });
    }
  });
});

describe('sessions', () => {
  test('logout ends this session at once; log out of all devices ends every one', async () => {
    const me = await h.signUp('student', 'Sam Session');
    const second = (await login(me.email, TEST_PASSWORD)).json.token as string;
    const third = (await login(me.email, TEST_PASSWORD)).json.token as string;
    const out = await h.api('POST', '/api/users/logout', { as: me.token });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toContain('token=;');
    expect((await h.api('GET', '/api/users', { as: me.token })).status).toBe(401);
    expect((await h.api('GET', '/api/users', { as: second })).status).toBe(200);
    expect((await h.api('POST', '/api/users/logout-all', { as: second })).status).toBe(200);
    expect((await h.api('GET', '/api/users', { as: second })).status).toBe(401);
    expect((await h.api('GET', '/api/users', { as: third })).status).toBe(401);
  });

  test('a password reset by emailed code ends every session and signs this device in', async () => {
    const me = await h.signUp('teacher', 'Rita Reset');
    aMinuteLater(me.email);
    expect((await h.api('POST', '/api/users/forgot-password', { body: { email: me.email } })).status).toBe(200);
    const code = await h.mail.nthCode(me.email, 2);
    expect(h.mail.mailsTo(me.email)[1].subject).toContain('password reset code');
    const wrong = await h.api('POST', '/api/users/reset-password', {
      body: { email: me.email, otp: code === '000000' ? '111111' : '000000', newPassword: 'brand new secret' },
    });
    expect(wrong.json.code).toBe('invalid_code');
    expect((await login(me.email, 'brand new secret')).status).toBe(401);
    const reset = await h.api('POST', '/api/users/reset-password', {
      body: { email: me.email, otp: code, newPassword: 'brand new secret' },
    });
    expect(reset.status).toBe(200);
    expect((await h.api('GET', '/api/users', { as: me.token })).status).toBe(401);
    expect((await h.api('GET', '/api/users', { as: reset.json.token })).status).toBe(200);
    expect((await login(me.email, TEST_PASSWORD)).status).toBe(401);
    expect((await login(me.email, 'brand new secret')).status).toBe(200);
    // The code is spent.
    const again = await h.api('POST', '/api/users/reset-password', {
      body: { email: me.email, otp: code, newPassword: 'another new one' },
    });
    expect(again.status).toBe(400);
  });

  test('a write authenticated by the cookie alone is refused from another site', async () => {
    const me = await h.signUp('student', 'Cora Cookie');
    const cookie = `token=${me.token}`;
    const rename = (origin: string) =>
      h.api('PATCH', `/api/users/${me.user._id}`, { body: { username: 'Renamed' }, headers: { cookie, origin } });
    const before = h.snapshot();
    const foreign = await rename('https://evil.example');
    expect(foreign.status).toBe(403);
    expect(h.snapshot()).toEqual(before);
    expect((await rename(h.baseUrl)).status).toBe(200);
    // A bearer token is never sent by a browser on its own: it may come from anywhere.
    const withBearer = await h.api('PATCH', `/api/users/${me.user._id}`, {
      as: me.token,
      body: { username: 'Renamed again' },
      headers: { origin: 'https://other.example' },
    });
    expect(withBearer.status).toBe(200);
  });
});

describe('spraying', () => {
  test("wrong passwords lock out unknown browsers, never the owner's own device", async () => {
    const owner = await h.signUp('student', 'Olive Owner');
    const first = await login(owner.email, TEST_PASSWORD);
    const device = cookieFrom(first.headers, 'device') as string;
    expect(device).toBeString();
    for (let i = 0; i < 10; i++) expect((await login(owner.email, 'not the password')).status).toBe(401);
    const sprayer = await login(owner.email, TEST_PASSWORD);
    expect(sprayer.status).toBe(429);
    expect(sprayer.json.error).toMatch(/try again in/);
    expect((await login(owner.email, TEST_PASSWORD, device)).status).toBe(200);
  });

  test('one network spraying many addresses is throttled', async () => {
    for (let i = 0; i < 60; i++) await login(`spray${i}@example.test`, 'password guess');
    const next = await login('spray-last@example.test', 'password guess');
    expect(next.status).toBe(429);
    expect(next.json.error).toContain('from this network');
    for (const limiter of Object.values(h.limits.perClient)) limiter.reset('127.0.0.1');
  }, 60_000);
});

describe('fields other people see', () => {
  test('hidden characters are refused or stripped, wrong types refused', async () => {
    const teacher = await h.signUp('teacher', 'Hilda Hidden');
    const create = (body: unknown) => h.api('POST', '/api/courses', { as: teacher.token, body });
    for (const courseName of ['Evil\u202Etxt.exe', 'Bell\u0007', 'Line\nbreak']) {
      await expectRefused(h, {
        name: JSON.stringify(courseName),
        as: teacher.token,
        method: 'POST',
        path: '/api/courses',
        body: { courseName },
        status: 400,
        field: 'courseName',
      });
    }
    const stripped = await create({ courseName: 'Zero\u200Bwidth' });
    expect(stripped.json.courseName).toBe('Zerowidth');
    for (const semester of [[1], true, 'spring']) {
      await expectRefused(h, {
        name: `semester ${JSON.stringify(semester)}`,
        as: teacher.token,
        method: 'POST',
        path: '/api/courses',
        body: { courseName: 'Types', semester },
        status: 400,
        field: 'semester',
      });
    }
    expect((await create({ courseName: 'Types', semester: '3' })).json.semester).toBe(3);
    await expectRefused(h, {
      name: 'name with an override',
      method: 'POST',
      path: '/api/users/register',
      body: { username: 'Ad\u202Emin', email: 'rtl@example.test', password: 'whatever123' },
      status: 400,
      field: 'username',
    });
  });
});
