import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { translate } from '../i18n/translate';
import { lectureBecameReady } from '../notifications/notifications';
import { type Account, type Harness, startHarness } from '../test/harness';
import { createClass, joinClass } from '../test/scenario';

/**
 * Issue 32 on the server: an error answer reads in the person's language (the account's choice, else the
 * browser's Accept-Language, else the school's DEFAULT_LOCALE) while its `code` stays the same, and mails go out in
 * the recipient's own language, subject included.
 */

const SPANISH_LOGIN = 'Correo o contraseña incorrectos';
const ENGLISH_LOGIN = 'Invalid email or password';

describe('languages', () => {
  let h: Harness;
  let teacher: Account;
  let student: Account;

  const badLogin = (headers: Record<string, string> = {}, as?: string) =>
    h.api('POST', '/api/users/login', {
      as,
      headers,
      body: { email: 'nobody@example.test', password: 'not the password' },
    });
  const localeInDb = async (id: string) =>
    (await h.db.select({ locale: users.locale }).from(users).where(eq(users.id, id)))[0]?.locale;
  const setLocale = (who: Account, locale: unknown) =>
    h.api('PATCH', `/api/users/${who.user._id}`, { as: who.token, body: { locale } });

  beforeAll(async () => {
    h = await startHarness();
    await h.signUp('teacher', 'Ada Admin');
    [teacher, student] = await Promise.all([
      h.signUp('teacher', 'Françoise Prof'),
      h.signUp('student', 'Sofía Alumna'),
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  test('a failed login reads in the browser language; the code does not change', async () => {
    const english = await badLogin();
    expect(english.status).toBe(401);
    expect(english.json).toMatchObject({ error: ENGLISH_LOGIN, message: ENGLISH_LOGIN, code: 'unauthorized' });

    const spanish = await badLogin({ 'Accept-Language': 'es-MX,es;q=0.9,en;q=0.5' });
    expect(spanish.status).toBe(401);
    expect(spanish.json).toMatchObject({ error: SPANISH_LOGIN, message: SPANISH_LOGIN, code: 'unauthorized' });

    const arabic = await badLogin({ 'Accept-Language': 'ar' });
    expect(arabic.status).toBe(401);
    expect(arabic.json.error).toBe('البريد الإلكتروني أو كلمة المرور غير صحيحة');
    expect(arabic.json.message).toBe(arabic.json.error);
    expect(arabic.json.code).toBe('unauthorized');
  });

  test('a malformed, unknown or enormous Accept-Language falls back to the school language, never a 500', async () => {
    for (const header of [';;;q=,,,-', 'xx-YY', 'x'.repeat(10_000), `es;q=0, ${'de,'.repeat(3000)}`, '*']) {
      const answer = await badLogin({ 'Accept-Language': header });
      expect({ header: header.slice(0, 20), status: answer.status, error: answer.json?.error }).toEqual({
        header: header.slice(0, 20),
        status: 401,
        error: ENGLISH_LOGIN,
      });
    }
  });

  test('validation messages are keys read in the language too, field by field', async () => {
    const answer = await h.api('POST', '/api/users/register', {
      headers: { 'Accept-Language': 'fr' },
      body: { username: 'Zoé', email: 'zoe@example.test', password: 'short', role: 'student' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('invalid_input');
    expect(answer.json.fields.password).toBe('Le mot de passe doit contenir au moins 8 caractères.');
  });

  test('PATCH locale: an offered language is saved and returned; null resets; the spec client still sends only a name', async () => {
    const saved = await setLocale(student, 'es');
    expect(saved.status).toBe(200);
    expect(saved.json.locale).toBe('es');
    expect(await localeInDb(student.user._id)).toBe('es');
    expect((await h.api('GET', '/api/users', { as: student.token })).json.locale).toBe('es');

    const renamed = await h.api('PATCH', `/api/users/${student.user._id}`, {
      as: student.token,
      body: { username: 'Sofía Alumna' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ username: 'Sofía Alumna', locale: 'es' });

    const reset = await setLocale(student, null);
    expect(reset.status).toBe(200);
    expect(reset.json.locale).toBeNull();
    expect(await localeInDb(student.user._id)).toBeNull();
  });

  test('PATCH locale: a language not offered, an unknown one, an enormous one or nothing at all is refused, changing nothing', async () => {
    await setLocale(student, 'fr');
    const notOffered = await setLocale(student, 'en-XA');
    expect(notOffered.status).toBe(400);
    expect(notOffered.json.code).toBe('locale_not_offered');
    expect(notOffered.json.error).toBe(
      "Cette langue n'est pas proposée sur ce serveur. Veuillez en choisir une dans la liste.",
    );
    for (const body of [{ locale: 'x'.repeat(10_000) }, { locale: 'klingon' }, { locale: 42 }, {}]) {
      const refused = await h.api('PATCH', `/api/users/${student.user._id}`, { as: student.token, body });
      expect({ body: JSON.stringify(body).slice(0, 30), status: refused.status }).toEqual({
        body: JSON.stringify(body).slice(0, 30),
        status: 400,
      });
      expect(refused.json.code).toBe('invalid_input');
    }
    expect(await localeInDb(student.user._id)).toBe('fr');
    const [row] = await h.db.select({ username: users.username }).from(users).where(eq(users.id, student.user._id));
    expect(row?.username).toBe('Sofía Alumna');
    await setLocale(student, null);
  });

  test("the signed-in account's language wins over the browser's for error messages", async () => {
    await setLocale(student, 'es');
    const answer = await h.api('GET', '/api/courses/AAAAAAAAAAAAAAAA', {
      as: student.token,
      headers: { 'Accept-Language': 'fr' },
    });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ code: 'course_not_found', error: 'No se encontró la clase.' });
    await setLocale(student, null);
    const french = await h.api('GET', '/api/courses/AAAAAAAAAAAAAAAA', {
      as: student.token,
      headers: { 'Accept-Language': 'fr' },
    });
    expect(french.json.error).toBe('Classe introuvable.');
  });

  test('a Spanish student and a French teacher get the lecture and comment mails in their own language', async () => {
    await setLocale(student, 'es');
    await setLocale(teacher, 'fr');
    const course = await createClass(h, teacher, 'Física');
    await joinClass(h, student, course.inviteCode);
    const lecture = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId: course.id, nameOfTopic: 'Ondas' },
    });
    expect(lecture.status).toBe(201);
    h.mail.clear();
    await lectureBecameReady(h.db, lecture.json._id);
    h.worker.wake();
    const [lectureMail] = await h.mail.waitFor(student.email, 1);
    expect(lectureMail?.subject).toBe('Nueva lección en Física: Ondas');
    expect(lectureMail?.text).toContain('Hola, Sofía Alumna:');
    expect(lectureMail?.text).toContain('Abrir la lección');
    expect(lectureMail?.text).toContain('lang="es" dir="ltr"');
    expect(lectureMail?.text).not.toContain('Open the lecture');

    const comment = await h.api('POST', `/api/lectures/${lecture.json._id}/comments`, {
      as: student.token,
      body: { text: '¿Por qué interfieren?' },
    });
    expect(comment.status).toBe(201);
    h.worker.wake();
    const [teacherMail] = await h.mail.waitFor(teacher.email, 1);
    expect(teacherMail?.subject).toBe('Sofía Alumna a commenté Ondas');
    expect(teacherMail?.text).toContain('Bonjour Françoise Prof,');
    expect(teacherMail?.text).toContain('Se désabonner');
    expect(teacherMail?.text).toContain('lang="fr"');

    const reply = await h.api('POST', `/api/lectures/${lecture.json._id}/comments`, {
      as: teacher.token,
      body: { text: 'Voir la diapositive suivante.', parentId: comment.json._id },
    });
    expect(reply.status).toBe(201);
    h.worker.wake();
    const studentMails = await h.mail.waitFor(student.email, 2);
    expect(studentMails[1]?.subject).toBe('Françoise Prof respondió a tu comentario en Ondas');
  });

  test('an Arabic mail reads right to left', async () => {
    await setLocale(student, 'ar');
    h.mail.clear();
    const answer = await h.api('POST', '/api/users/forgot-password', { body: { email: student.email } });
    expect(answer.status).toBe(200);
    const [mail] = await h.mail.waitFor(student.email, 1);
    expect(mail?.subject).toMatch(/^\d{6} هو رمز إعادة تعيين كلمة المرور الخاص بك في Classroom$/);
    expect(mail?.text).toContain('lang="ar" dir="rtl"');
    await setLocale(student, null);
  });

  test('a sign-up code mail (no account yet) is in the language of the request', async () => {
    h.mail.clear();
    const registered = await h.api('POST', '/api/users/register', {
      headers: { 'Accept-Language': 'pt-BR' },
      body: { username: 'João Novo', email: 'joao@example.test', password: 'correct horse battery' },
    });
    expect(registered.status).toBe(201);
    const [mail] = await h.mail.waitFor('joao@example.test', 1);
    expect(mail?.subject).toMatch(/^\d{6} é seu código de verificação do Classroom$/);
    expect(mail?.text).toContain('Olá, João Novo,');
  });

  test('the school sign-in label is in the request language when the school set none', async () => {
    const school = await startHarness({
      OIDC_ISSUER: 'https://school.example.test',
      OIDC_CLIENT_ID: 'classroom',
      PUBLIC_URL: 'http://localhost:3000',
    });
    try {
      const spanish = await school.api('GET', '/api/auth/providers', { headers: { 'Accept-Language': 'es' } });
      expect(spanish.json.oidc.label).toBe(translate('es', 'auth.schoolButton'));
      const english = await school.api('GET', '/api/auth/providers');
      expect(english.json.oidc.label).toBe('Sign in with your school account');
    } finally {
      await school.close();
    }
  });
});

describe('plurals', () => {
  test('Arabic has six forms for the digest count; English two', () => {
    const arabic = [0, 1, 2, 3, 11, 100].map((count) =>
      translate('ar', 'notifications.digest.subjectMany', { product: 'Classroom', count }),
    );
    expect(new Set(arabic).size).toBe(6);
    expect(arabic[2]).toContain('تحديثان');
    expect(arabic[3]).toContain('3 تحديثات');
    expect(arabic[4]).toContain('11 تحديثًا');
    expect(arabic[5]).toContain('100 تحديث جديد');
    expect(translate('en', 'notifications.digest.subjectMany', { product: 'Classroom', count: 1 })).toBe(
      'Today on Classroom: 1 new thing',
    );
    expect(translate('en', 'notifications.digest.subjectMany', { product: 'Classroom', count: 2 })).toBe(
      'Today on Classroom: 2 new things',
    );
  });

  test('a wait reads in seconds or minutes, by ICU plurals', () => {
    expect(translate('en', 'errors.tooManyFailedAttempts', { unit: 'minutes', count: 15 })).toBe(
      'Too many failed attempts. Please try again in 15 minutes.',
    );
    expect(translate('en', 'errors.tooManyFailedAttempts', { unit: 'seconds', count: 1 })).toBe(
      'Too many failed attempts. Please try again in 1 second.',
    );
    expect(translate('ar', 'errors.tooManyFailedAttempts', { unit: 'minutes', count: 2 })).toContain('دقيقتين');
    expect(translate('es', 'errors.wrongCode', { count: 1 })).toBe('Ese código no es correcto. Te queda 1 intento.');
  });
});

describe('a school whose language is Spanish', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ DEFAULT_LOCALE: 'es' });
  });
  afterAll(async () => {
    await h?.close();
  });

  test('answers in Spanish when the browser names no language it offers', async () => {
    for (const headers of [{}, { 'Accept-Language': 'xx-YY' }] as Record<string, string>[]) {
      const answer = await h.api('POST', '/api/users/login', {
        headers,
        body: { email: 'nobody@example.test', password: 'not the password' },
      });
      expect(answer.status).toBe(401);
      expect(answer.json).toMatchObject({ error: SPANISH_LOGIN, code: 'unauthorized' });
    }
    const english = await h.api('POST', '/api/users/login', {
      headers: { 'Accept-Language': 'en-GB' },
      body: { email: 'nobody@example.test', password: 'not the password' },
    });
    expect(english.json.error).toBe(ENGLISH_LOGIN);
  });
});
