import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { signups, users } from '../db/schema';
import { imageInfo, makePng } from '../test/fixtures';
import { type Harness, signupCookie, startHarness } from '../test/harness';
import { expectRefused } from '../test/tables';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const password = 'correct horse battery';

describe('registration and verification', () => {
  test('a teacher registers, gets a 6-digit code by mail, verifies and reads their account', async () => {
    const email = 'Ada.Teacher@Example.test';
    const registered = await h.api('POST', '/api/users/register', {
      body: { username: '  Ada  ', email, password, role: 'teacher' },
    });
    expect(registered.status).toBe(201);
    expect(registered.json.requiresVerification).toBe(true);
    expect(registered.text).not.toContain('password');

    const otp = await h.mail.codeFor('ada.teacher@example.test');
    expect(otp).toMatch(/^\d{6}$/);
    const mail = h.mail.mailsTo('ada.teacher@example.test')[0];
    expect(mail.subject).toContain('Classroom');
    expect(mail.text).toContain('text/html');

    const login = await h.api('POST', '/api/users/login', { body: { email, password } });
    expect(login.status).toBe(403);
    expect(login.json.requiresVerification).toBe(true);
    // The code sent seconds ago stays valid: login does not resend within the minute.
    expect(h.mail.mailsTo('ada.teacher@example.test')).toHaveLength(1);

    // From the browser that signed up (its `signup` cookie): the password typed there opens the account.
    const cookie = signupCookie(registered.headers) ?? '';
    const verified = await h.api('POST', '/api/users/verify-otp', { body: { email, otp }, headers: { cookie } });
    expect(verified.status).toBe(200);
    expect(typeof verified.json.token).toBe('string');

    const me = await h.api('GET', '/api/users', { as: verified.json.token });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({
      username: 'Ada',
      email: 'ada.teacher@example.test',
      role: 'teacher',
      profilePictureImageLink: '/placeholder-avatar.svg',
      isVerified: true,
    });
    expect(me.json._id).toBeString();
    expect(JSON.stringify(me.json)).not.toMatch(/hash|tokenVersion|argon/i);

    const again = await h.api('POST', '/api/users/verify-otp', { body: { email, otp } });
    expect(again.status).toBe(400);

    // Signing up again answers exactly like a new sign-up (no account is revealed); the owner gets a notice.
    await h.limits.codeMailMinute.reset('signup:ada.teacher@example.test');
    const duplicate = await h.api('POST', '/api/users/register', {
      body: { username: 'Other', email, password, role: 'student' },
    });
    expect(duplicate.status).toBe(201);
    expect(duplicate.json).toEqual(registered.json);
    await h.mail.waitFor('ada.teacher@example.test', 2);
    expect(h.mail.mailsTo('ada.teacher@example.test')[1].subject).toBe('Your Classroom account');
  });

  test('the role defaults to student', async () => {
    const email = 'default.role@example.test';
    const registered = await h.api('POST', '/api/users/register', { body: { username: 'Dee', email, password } });
    const otp = await h.mail.codeFor(email);
    const cookie = signupCookie(registered.headers) ?? '';
    const verified = await h.api('POST', '/api/users/verify-otp', { body: { email, otp }, headers: { cookie } });
    expect(verified.json.user.role).toBe('student');
  });

  test('a wrong code counts down, the fifth wrong try voids the code and the sixth is refused', async () => {
    const email = 'wrong.codes@example.test';
    await h.api('POST', '/api/users/register', { body: { username: 'Wren', email, password } });
    const otp = await h.mail.codeFor(email);
    const wrong = otp === '000000' ? '111111' : '000000';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await h.api('POST', '/api/users/verify-otp', { body: { email, otp: wrong } });
      expect(result.status).toBe(400);
      answers.push(result.json.error);
    }
    expect(answers[0]).toBe('That code is not right. 4 tries left.');
    expect(answers[3]).toBe('That code is not right. 1 try left.');
    expect(answers[4]).toContain('Too many wrong codes');
    const sixth = await h.api('POST', '/api/users/verify-otp', { body: { email, otp } });
    expect(sixth.status).toBe(400);
    expect(sixth.json.code).toBe('code_used_up');
  });

  test('an expired code is refused; resend is limited to once a minute and sends a new code', async () => {
    const email = 'expired@example.test';
    const registered = await h.api('POST', '/api/users/register', { body: { username: 'Exp', email, password } });
    const cookie = signupCookie(registered.headers) ?? '';
    const otp = await h.mail.codeFor(email);
    const tooSoon = await h.api('POST', '/api/users/resend-otp', { body: { email } });
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.json.error).toMatch(/wait \d+ seconds/);

    // Ten minutes and a resend interval later.
    await h.db.update(signups).set({ codeExpiresAt: 0 }).where(eq(signups.email, email));
    await h.limits.codeMailMinute.reset(`signup:${email}`);
    const expired = await h.api('POST', '/api/users/verify-otp', { body: { email, otp } });
    expect(expired.status).toBe(400);
    expect(expired.json.code).toBe('code_expired');

    const resent = await h.api('POST', '/api/users/resend-otp', { body: { email } });
    expect(resent.status).toBe(200);
    expect(resent.json.message).toBe('A new OTP has been sent to your email');
    const fresh = await h.mail.codeFor(email, 1);
    const verified = await h.api('POST', '/api/users/verify-otp', { body: { email, otp: fresh }, headers: { cookie } });
    expect(verified.status).toBe(200);
  });

  test('resend for an unknown address answers like a known one and sends nothing', async () => {
    const result = await h.api('POST', '/api/users/resend-otp', { body: { email: 'nobody@example.test' } });
    expect(result.status).toBe(200);
    expect(h.mail.mailsTo('nobody@example.test')).toHaveLength(0);
  });

  test('codes are stored hashed', async () => {
    const email = 'hashed@example.test';
    const registered = await h.api('POST', '/api/users/register', { body: { username: 'Hash', email, password } });
    const cookie = signupCookie(registered.headers) ?? '';
    const otp = await h.mail.codeFor(email);
    const rows = await h.db.select({ codeHash: signups.codeHash, passwordHash: signups.passwordHash }).from(signups);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => !row.codeHash.includes(otp))).toBe(true);
    expect(rows.every((row) => row.passwordHash.startsWith('$argon2id$'))).toBe(true);
    expect((await h.api('POST', '/api/users/verify-otp', { body: { email, otp }, headers: { cookie } })).status).toBe(
      200,
    );
    const [userRow] = await h.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.email, email));
    expect(userRow?.passwordHash).toStartWith('$argon2id$');
  });
});

describe('bad input is refused with 400 and the field, creating nothing', () => {
  const good = { username: 'Val', email: 'val@example.test', password, role: 'student' };
  const cases: { name: string; body: unknown; field: string }[] = [
    { name: 'missing email', body: { ...good, email: undefined }, field: 'email' },
    { name: 'missing password', body: { ...good, password: undefined }, field: 'password' },
    { name: 'missing username', body: { ...good, username: undefined }, field: 'username' },
    { name: 'email not an email', body: { ...good, email: 'not-an-email' }, field: 'email' },
    { name: 'email of wrong type', body: { ...good, email: 42 }, field: 'email' },
    { name: 'email too long', body: { ...good, email: `${'a'.repeat(250)}@example.test` }, field: 'email' },
    { name: 'password too short', body: { ...good, password: 'short' }, field: 'password' },
    { name: 'password too long', body: { ...good, password: 'x'.repeat(201) }, field: 'password' },
    { name: 'username too short', body: { ...good, username: ' a ' }, field: 'username' },
    { name: 'username too long', body: { ...good, username: 'n'.repeat(41) }, field: 'username' },
    { name: 'role not allowed', body: { ...good, role: 'admin' }, field: 'role' },
  ];
  for (const { name, body, field } of cases) {
    test(`register: ${name}`, async () => {
      await expectRefused(h, { name, method: 'POST', path: '/api/users/register', body, status: 400, field });
    });
  }

  test('malformed JSON is a 400, not a 500', async () => {
    const before = h.snapshot();
    const result = await h.api('POST', '/api/users/login', {
      body: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(result.status).toBe(400);
    expect(result.json.error).toBeString();
    expect(h.snapshot()).toEqual(before);
  });

  test('verify: blank, short and non-numeric codes are refused', async () => {
    for (const otp of ['', '   ', '12345', 'abcdef', 1234567]) {
      await expectRefused(h, {
        name: `otp ${JSON.stringify(otp)}`,
        method: 'POST',
        path: '/api/users/verify-otp',
        body: { email: 'x@example.test', otp },
        status: 400,
        field: 'otp',
      });
    }
  });

  test('an unknown API path answers a JSON 404', async () => {
    const result = await h.api('GET', '/api/nothing-here');
    expect(result.status).toBe(404);
    expect(result.json.error).toBeString();
  });
});

describe('login and tokens', () => {
  let account: Awaited<ReturnType<Harness['signUp']>>;
  beforeAll(async () => {
    account = await h.signUp('student', 'Lena Login');
  });

  test('login answers a token; an unknown email and a wrong password answer alike', async () => {
    const ok = await h.api('POST', '/api/users/login', { body: { email: account.email.toUpperCase(), password } });
    expect(ok.status).toBe(200);
    expect(ok.json.token).toBeString();
    const wrong = await h.api('POST', '/api/users/login', {
      body: { email: account.email, password: 'wrong password' },
    });
    const unknown = await h.api('POST', '/api/users/login', {
      body: { email: 'ghost@example.test', password: 'wrong password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual(unknown.json);
  });

  test('no token, a bad token and a token signed with another algorithm are 401; the cookie works too', async () => {
    expect((await h.api('GET', '/api/users')).status).toBe(401);
    expect((await h.api('GET', '/api/users', { as: 'not.a.token' })).status).toBe(401);
    const [, payload] = account.token.split('.');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expect((await h.api('GET', '/api/users', { as: unsigned })).status).toBe(401);
    const viaCookie = await h.api('GET', '/api/users', { headers: { cookie: `token=${account.token}` } });
    expect(viaCookie.status).toBe(200);
  });

  test('ten failed logins lock the address for a while, even with the right password', async () => {
    const victim = await h.signUp('student', 'Lock Me');
    for (let i = 0; i < 10; i++) {
      await h.api('POST', '/api/users/login', { body: { email: victim.email, password: 'wrong password' } });
    }
    const locked = await h.api('POST', '/api/users/login', { body: { email: victim.email, password } });
    expect(locked.status).toBe(429);
  });
});

describe('profile', () => {
  test("a user changes their name; blank, short and another user's id are refused", async () => {
    const me = await h.signUp('student', 'Nora Name');
    const other = await h.signUp('student', 'Otto Other');
    const renamed = await h.api('PATCH', `/api/users/${me.user._id}`, {
      as: me.token,
      body: { username: ' Nora N. ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json.username).toBe('Nora N.');
    const rename = { method: 'PATCH', path: `/api/users/${me.user._id}` };
    await expectRefused(h, {
      ...rename,
      name: 'blank',
      as: me.token,
      body: { username: '   ' },
      status: 400,
      field: 'username',
    });
    await expectRefused(h, {
      ...rename,
      name: 'short',
      as: me.token,
      body: { username: 'N' },
      status: 400,
      field: 'username',
    });
    await expectRefused(h, {
      name: "another user's id",
      as: me.token,
      method: 'PATCH',
      path: `/api/users/${other.user._id}`,
      body: { username: 'Hacked' },
      status: 403,
    });
    await expectRefused(h, { ...rename, name: 'anonymous', body: { username: 'Anon' }, status: 401 });
  });

  test('a password change needs the current password and ends older sessions', async () => {
    const me = await h.signUp('teacher', 'Pat Password');
    const otherDevice = await h.api('POST', '/api/users/login', { body: { email: me.email, password } });
    expect(otherDevice.status).toBe(200);
    const other = await h.signUp('teacher', 'Pia Other');
    const wrong = await h.api('PATCH', `/api/users/${me.user._id}/password`, {
      as: me.token,
      body: { currentPassword: 'not it at all', newPassword: 'a brand new secret' },
    });
    expect(wrong.status).toBe(400);
    const short = await h.api('PATCH', `/api/users/${me.user._id}/password`, {
      as: me.token,
      body: { currentPassword: password, newPassword: 'short' },
    });
    expect(short.status).toBe(400);
    const foreign = await h.api('PATCH', `/api/users/${other.user._id}/password`, {
      as: me.token,
      body: { currentPassword: password, newPassword: 'a brand new secret' },
    });
    expect(foreign.status).toBe(403);

    const changed = await h.api('PATCH', `/api/users/${me.user._id}/password`, {
      as: me.token,
      body: { currentPassword: password, newPassword: 'a brand new secret' },
    });
    expect(changed.status).toBe(200);
    // This device stays signed in (its token and the cookie the answer sets); other devices are signed out.
    expect((await h.api('GET', '/api/users', { as: me.token })).status).toBe(200);
    expect((await h.api('GET', '/api/users', { as: changed.json.token })).status).toBe(200);
    expect(changed.headers.get('set-cookie')).toContain(`token=${changed.json.token}`);
    expect((await h.api('GET', '/api/users', { as: otherDevice.json.token })).status).toBe(401);
    expect((await h.api('POST', '/api/users/login', { body: { email: me.email, password } })).status).toBe(401);
    expect(
      (await h.api('POST', '/api/users/login', { body: { email: me.email, password: 'a brand new secret' } })).status,
    ).toBe(200);
  });

  test('a profile picture is re-encoded to a 256 px square and served; SVG, text and huge files are refused', async () => {
    const me = await h.signUp('student', 'Pic Taker');
    const png = await makePng(640, 480);
    const form = new FormData();
    form.append('profilePicture', new File([new Uint8Array(png)], 'me.png', { type: 'image/png' }));
    const uploaded = await h.api('POST', '/api/users/profile-picture', { as: me.token, body: form });
    expect(uploaded.status).toBe(200);
    expect(uploaded.json.profilePictureImageLink).toStartWith(`/api/users/${me.user._id}/avatar?v=1`);

    const picture = await fetch(`${h.baseUrl}${uploaded.json.profilePictureImageLink}`, {
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/webp');
    expect(await imageInfo(new Uint8Array(await picture.arrayBuffer()))).toEqual({
      codec: 'webp',
      width: 256,
      height: 256,
    });
    const anonymous = await fetch(`${h.baseUrl}${uploaded.json.profilePictureImageLink}`);
    expect(anonymous.status).toBe(401);

    const refuse = async (file: File, status: number) => {
      const body = new FormData();
      body.append('profilePicture', file);
      const result = await h.api('POST', '/api/users/profile-picture', { as: me.token, body });
      expect(result.status).toBe(status);
      expect(result.json.error).toBeString();
    };
    await refuse(new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'x.svg', { type: 'image/svg+xml' }), 400);
    await refuse(new File(['just text'], 'x.png', { type: 'image/png' }), 400);
    await refuse(
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], 'broken.png'),
      400,
    );
    await refuse(new File([new Uint8Array(6 * 1024 * 1024)], 'big.png', { type: 'image/png' }), 413);
    const empty = await h.api('POST', '/api/users/profile-picture', { as: me.token, body: new FormData() });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe('Please select an image file to upload.');
    const after = await h.api('GET', '/api/users', { as: me.token });
    expect(after.json.profilePictureImageLink).toContain('v=1');
  });
});

test('the last administrator cannot delete their own account; with another administrator they can', async () => {
  const own = await startHarness({ ADMIN_EMAIL: 'ann.admin@example.test' });
  try {
    const admin = await own.signUp('teacher', 'Ann Admin');
    const other = await own.signUp('teacher', 'Bo Backup');
    expect(admin.user.isAdmin).toBe(true);
    const deleteSelf = {
      as: admin.token,
      method: 'DELETE',
      path: `/api/users/${admin.user._id}`,
      body: { password: admin.password },
      status: 409,
      code: 'last_admin',
    };
    const refused = await expectRefused(own, { ...deleteSelf, name: 'the only administrator' });
    expect(refused.json.message).toContain('Make someone else administrator first');
    // A wrong password is still a wrong password, whoever asks.
    await expectRefused(own, {
      ...deleteSelf,
      name: 'wrong password',
      body: { password: 'not it' },
      status: 400,
      code: 'wrong_password',
    });

    // Another administrator who is disabled cannot run the server either.
    const promote = { as: admin.token, body: { isAdmin: true, disabled: true } };
    expect((await own.api('PATCH', `/api/admin/users/${other.user._id}`, promote)).status).toBe(200);
    await expectRefused(own, { ...deleteSelf, name: 'the other administrator is disabled' });

    const enable = { as: admin.token, body: { disabled: false } };
    expect((await own.api('PATCH', `/api/admin/users/${other.user._id}`, enable)).status).toBe(200);
    expect((await own.api('DELETE', deleteSelf.path, { as: admin.token, body: deleteSelf.body })).status).toBe(200);
    // Now Bo is the last one (signed in again: disabling ended his sessions).
    const login = await own.api('POST', '/api/users/login', { body: { email: other.email, password: other.password } });
    await expectRefused(own, {
      ...deleteSelf,
      name: 'the new last administrator',
      as: login.json.token,
      path: `/api/users/${other.user._id}`,
      body: { password: other.password },
    });
  } finally {
    await own.close();
  }
}, 60_000);

test('a huge JSON body is refused with 413 before it is read', async () => {
  const result = await h.api('POST', '/api/users/login', {
    body: JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(7 * 1024 * 1024) }),
    headers: { 'content-type': 'application/json' },
  });
  expect(result.status).toBe(413);
  expect(result.json.error).toBe('The request is too large.');
});

test('when the mail server is down, sign-up answers 503 and keeps no account', async () => {
  const down = await startHarness({}, { worker: false, smtpUrl: 'smtp://127.0.0.1:1' });
  try {
    const result = await down.api('POST', '/api/users/register', {
      body: { username: 'Nomail', email: 'nomail@example.test', password, role: 'student' },
    });
    expect(result.status).toBe(503);
    expect(result.json.error).toContain('could not send');
    expect(await down.db.$count(users)).toBe(0);
  } finally {
    await down.close();
  }
});
