import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { signups, users } from '../db/schema';
import { type Harness, startHarness, TEST_PASSWORD } from '../test/harness';
import { expectRefused } from '../test/tables';

/** The threats of docs/accounts.md, each played against the real server. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { worker: false });
});
afterAll(() => h?.close());

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
/** Who the owner of the mailbox says they are when choosing the password (asked away from the sign-up's browser). */
const OWNER = { username: 'Mailbox Owner', role: 'student' } as const;
/** With a `password`, also the name and role (`profile`), as the choose-password form sends them. */
const verify = (
  email: string,
  otp: string,
  cookie?: string,
  password?: string,
  profile: { username?: string; role?: string } = OWNER,
) =>
  h.api('POST', '/api/users/verify-otp', {
    body: password === undefined ? { email, otp } : { email, otp, password, ...profile },
    headers: cookie ? { cookie } : {},
  });
const login = (email: string, password: string, cookie?: string) =>
  h.api('POST', '/api/users/login', { body: { email, password }, headers: cookie ? { cookie } : {} });
/** What a minute later looks like to the mail cap. */
const aMinuteLater = async (email: string) => {
  await h.limits.codeMailMinute.reset(`signup:${email}`);
  await h.limits.codeMailMinute.reset(`reset:${email}`);
};

describe('sign-up takeover', () => {
  // These scenarios check many codes; the network's cap on code checks is not what they are about.
  afterEach(() => h.limits.perClient.codeChecks.reset('127.0.0.1'));

  test("victim first: the attacker's code, though the newest in the mailbox, cannot verify in the victim's browser", async () => {
    const email = 'victim1@example.test';
    const victimCookie = await register(email, VICTIM_PASSWORD, 'Vic Tim');
    const victimCode = await h.mail.nthCode(email, 1);
    await aMinuteLater(email);
    await register(email, ATTACKER_PASSWORD, 'Mallory');
    const attackerCode = await h.mail.nthCode(email, 2);
    expect(h.mail.mailsTo(email)[1].text).toContain('Someone else has also started a sign-up');

    const before = h.snapshot();
    const inVictimsBrowser = await verify(email, attackerCode, victimCookie);
    expect(inVictimsBrowser.status).toBe(400);
    expect(inVictimsBrowser.json.code).toBe('code_of_other_signup');
    // Not even with a password of the victim's choosing: that browser holds its own sign-up.
    expect((await verify(email, attackerCode, victimCookie, 'a password typed now')).status).toBe(400);
    expect(h.snapshot()).toEqual(before);

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
    await aMinuteLater(email);
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

  test('from the browser that signed up, the code alone verifies: one step, with the password typed there', async () => {
    const email = 'same.browser@example.test';
    const cookie = await register(email, VICTIM_PASSWORD, 'Sam Browser');
    const verified = await verify(email, await h.mail.nthCode(email, 1), cookie);
    expect(verified.status).toBe(200);
    expect(verified.json.token).toBeString();
    expect(verified.headers.getSetCookie().some((line) => line.startsWith('signup=;'))).toBe(true);
    expect((await login(email, VICTIM_PASSWORD)).status).toBe(200);
  });

  test("attacker first, the victim refused with 429: the code typed without the sign-up's cookie asks for a new password, and the attacker's never opens the account", async () => {
    const email = 'victim3@example.test';
    const attackerCookie = await register(email, ATTACKER_PASSWORD, 'Mallory');
    const code = await h.mail.nthCode(email, 1);

    // The victim's own sign-up is refused by the one-code-a-minute cap: nothing stored, no cookie.
    let before = h.snapshot();
    const refused = await h.api('POST', '/api/users/register', {
      body: { username: 'Vic Tim', email, password: VICTIM_PASSWORD },
    });
    expect(refused.status).toBe(429);
    expect(cookieFrom(refused.headers, 'signup')).toBeUndefined();
    expect(h.snapshot()).toEqual(before);

    // The right code, with no cookie: told to choose a password; nothing made, the code not spent.
    before = h.snapshot();
    const asked = await verify(email, code);
    expect(asked.status).toBe(409);
    expect(asked.json).toMatchObject({ code: 'choose_password', requiresPassword: true, email });
    expect(asked.json.error).toBe(asked.json.message);
    expect(asked.json.error).toContain('choose your password');
    expect(asked.json.token).toBeUndefined();
    expect(h.snapshot()).toEqual(before);

    // Meanwhile the attacker's password answers "verify first", never a token, and changes nothing.
    const attackerTries = await login(email, ATTACKER_PASSWORD, attackerCookie);
    expect(attackerTries.status).toBe(403);
    expect(attackerTries.json.token).toBeUndefined();
    expect(h.snapshot()).toEqual(before);

    const NEW_PASSWORD = 'the victim chose this now';
    const verified = await verify(email, code, undefined, NEW_PASSWORD);
    expect(verified.status).toBe(200);
    expect(verified.json.token).toBeString();
    expect((await h.api('GET', '/api/users', { as: verified.json.token })).json.email).toBe(email);
    // Stored is the new password; every sign-up (and the password stored with it) is gone.
    const [row] = await h.db.select().from(users).where(eq(users.email, email));
    expect(await Bun.password.verify(NEW_PASSWORD, row?.passwordHash ?? '')).toBe(true);
    expect(await Bun.password.verify(ATTACKER_PASSWORD, row?.passwordHash ?? '')).toBe(false);
    expect(await h.db.select().from(signups).where(eq(signups.email, email))).toEqual([]);

    // The attacker's password now gets exactly what a wrong password gets, from their own browser too.
    const wrongPassword = await login(email, 'not anybody password');
    for (const cookie of [attackerCookie, undefined]) {
      const attacker = await login(email, ATTACKER_PASSWORD, cookie);
      expect({ status: attacker.status, body: attacker.json }).toEqual({
        status: wrongPassword.status,
        body: wrongPassword.json,
      });
    }
    expect(wrongPassword.status).toBe(401);
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
    expect((await verify(email, code, attackerCookie)).status).toBe(400);
  });

  test("attacker first, logging in again a minute later: the fresh code is bound to the attacker's browser, and the victim typing it still chooses the password", async () => {
    const email = 'victim4@example.test';
    await register(email, ATTACKER_PASSWORD, 'Mallory');
    const firstCode = await h.mail.nthCode(email, 1);
    expect((await verify(email, firstCode)).json.code).toBe('choose_password');
    await aMinuteLater(email);
    const attackerLogin = await login(email, ATTACKER_PASSWORD);
    expect(attackerLogin.status).toBe(403);
    expect(attackerLogin.json.token).toBeUndefined();
    const loginCookie = cookieFrom(attackerLogin.headers, 'signup') as string;
    expect(loginCookie).toBeString();
    const freshCode = await h.mail.nthCode(email, 2);
    // The first code was replaced by the fresh one.
    expect((await verify(email, firstCode, undefined, 'the victim chose this now')).json.code).toBe('wrong_code');
    expect((await verify(email, freshCode)).json.code).toBe('choose_password');
    const verified = await verify(email, freshCode, undefined, 'the victim chose this now');
    expect(verified.status).toBe(200);
    expect((await login(email, ATTACKER_PASSWORD, loginCookie)).status).toBe(401);
    expect((await login(email, 'the victim chose this now')).status).toBe(200);
  });

  test('victim first, then the attacker: the victim types their code on another device and chooses the password there', async () => {
    const email = 'victim5@example.test';
    await register(email, VICTIM_PASSWORD, 'Vic Tim');
    const victimCode = await h.mail.nthCode(email, 1);
    await aMinuteLater(email);
    const attackerCookie = await register(email, ATTACKER_PASSWORD, 'Mallory');
    const before = h.snapshot();
    expect((await verify(email, victimCode)).json.code).toBe('choose_password');
    expect(h.snapshot()).toEqual(before);
    const verified = await verify(email, victimCode, undefined, 'chosen on the phone', {
      username: 'Vic Tim',
      role: 'student',
    });
    expect(verified.status).toBe(200);
    expect(verified.json.user.username).toBe('Vic Tim');
    expect((await login(email, ATTACKER_PASSWORD, attackerCookie)).status).toBe(401);
    expect((await login(email, 'chosen on the phone')).status).toBe(200);
  });

  test("finished away from its browser, the account takes the name and role sent with the code, not the other sign-up's", async () => {
    const email = 'victim6@example.test';
    const attacker = await h.api('POST', '/api/users/register', {
      body: { username: 'Attacker', email, password: ATTACKER_PASSWORD, role: 'teacher' },
    });
    expect(attacker.status).toBe(201);
    const code = await h.mail.nthCode(email, 1);
    // A password alone is not enough there: the name and role the attacker typed would come with it.
    for (const profile of [{}, { username: 'Vic Tim' }, { role: 'student' }]) {
      await expectRefused(h, {
        name: `password with ${JSON.stringify(profile)}`,
        method: 'POST',
        path: '/api/users/verify-otp',
        body: { email, otp: code, password: VICTIM_PASSWORD, ...profile },
        status: 409,
        code: 'choose_password',
      });
    }
    await expectRefused(h, {
      name: 'a name with hidden characters',
      method: 'POST',
      path: '/api/users/verify-otp',
      body: { email, otp: code, password: VICTIM_PASSWORD, username: 'Vic\u202eTim', role: 'student' },
      status: 400,
      field: 'username',
    });
    const logged = h.logLines.length;
    const verified = await verify(email, code, undefined, VICTIM_PASSWORD, { username: 'Vic Tim', role: 'student' });
    expect(verified.status).toBe(200);
    expect(verified.json.user).toMatchObject({ username: 'Vic Tim', role: 'student', teacherStatus: null });
    const [row] = await h.db.select().from(users).where(eq(users.email, email));
    expect(row).toMatchObject({ username: 'Vic Tim', role: 'student', teacherStatus: null });
    expect(h.logLines.slice(logged).some((line) => line.event === 'teacher_waits')).toBe(false);
    expect((await login(email, ATTACKER_PASSWORD)).status).toBe(401);
  });

  test('the choose-password step: the new password follows the password rules, and a wrong code there counts as a wrong try', async () => {
    const email = 'second.step@example.test';
    await register(email, ATTACKER_PASSWORD, 'Mallory');
    const code = await h.mail.nthCode(email, 1);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const NEW_PASSWORD = 'the owner chose this';
    expect((await verify(email, code)).json.code).toBe('choose_password');

    for (const password of ['short', 'x'.repeat(201), 12345678]) {
      await expectRefused(h, {
        name: `password ${JSON.stringify(password).slice(0, 20)}`,
        method: 'POST',
        path: '/api/users/verify-otp',
        body: { email, otp: code, password },
        status: 400,
        field: 'password',
      });
    }

    const wrong = await verify(email, wrongCode, undefined, NEW_PASSWORD);
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ code: 'wrong_code', error: 'That code is not right. 4 tries left.' });
    const [row] = await h.db.select().from(signups).where(eq(signups.email, email));
    expect(row?.failedAttempts).toBe(1);
    expect(await h.db.select().from(users).where(eq(users.email, email))).toEqual([]);

    // The address's hourly cap on wrong codes holds on this step too.
    for (let i = 0; i < 18; i++) await h.limits.wrongCodesPerAddress.hit(email);
    expect((await verify(email, wrongCode, undefined, NEW_PASSWORD)).status).toBe(400);
    const before = h.snapshot();
    const capped = await verify(email, code, undefined, NEW_PASSWORD);
    expect(capped.status).toBe(429);
    expect(capped.json.error).toContain('wrong codes');
    expect(h.snapshot()).toEqual(before);
    await h.limits.wrongCodesPerAddress.reset(email);

    // …and so do the code's 5 tries: the fifth wrong one voids it, even for the right code after.
    for (let i = 0; i < 3; i++) await verify(email, wrongCode, undefined, NEW_PASSWORD);
    expect((await verify(email, code, undefined, NEW_PASSWORD)).json.code).toBe('code_used_up');
    expect(await h.db.select().from(users).where(eq(users.email, email))).toEqual([]);
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
      await aMinuteLater(email);
      expect((await h.api('POST', '/api/users/resend-otp', { body: { email } })).status).toBe(200);
    }
    await aMinuteLater(email);
    const eleventh = await h.api('POST', '/api/users/resend-otp', { body: { email } });
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  test('guesses per address stay in the tens an hour, however many fresh codes a new sign-up brings', async () => {
    const email = 'guess@example.test';
    let wrong = 0;
    for (let round = 0; round < 4; round++) {
      await aMinuteLater(email);
      await register(email, VICTIM_PASSWORD, 'Guess');
      for (let i = 0; i < 5; i++) {
        const result = await verify(email, String(100000 + wrong));
        expect(result.status).toBe(400);
        wrong++;
      }
    }
    expect(wrong).toBe(20);
    await aMinuteLater(email);
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
    await aMinuteLater(owner.email);
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
      await aMinuteLater(owner.email);
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
  test('the token cookie is Secure when the browser came over https, also through a proxy that ended TLS', async () => {
    const me = await h.signUp('student', 'Pat Proxy');
    const tokenCookie = (headers: Headers) => headers.getSetCookie().find((line) => line.startsWith('token=')) ?? '';
    const plain = await login(me.email, TEST_PASSWORD);
    expect(plain.status).toBe(200);
    expect(tokenCookie(plain.headers)).not.toContain('Secure');
    const proxied = await h.api('POST', '/api/users/login', {
      body: { email: me.email, password: TEST_PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(proxied.status).toBe(200);
    expect(tokenCookie(proxied.headers)).toMatch(/^token=[^;]+;.*Secure/);
  });

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
    await aMinuteLater(me.email);
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
    for (const limiter of Object.values(h.limits.perClient)) await limiter.reset('127.0.0.1');
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
