import { afterAll, beforeAll, expect, test } from 'bun:test';
import { type Account, type Harness, startHarness } from '../test/harness';
import { createClass, joinClass } from '../test/scenario';

/**
 * A NUL character in every text input the API describes (walked from /api/openapi.json, so a new field is covered
 * without editing this file): each is refused with our 400 naming the field, and nothing changes. PostgreSQL cannot
 * store a NUL at all (it answered 500 where SQLite saved it), so this runs on both engines (TEST_DATABASE_URL).
 */
let h: Harness;
let admin: Account;
let student: Account;
let courseId: string;
/** A real lecture: the captions route finds its lecture before it reads the form. */
let lectureId: string;
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  items?: Schema;
  format?: string;
  minimum?: number;
  $ref?: string;
};
type Operation = {
  parameters?: { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
let paths: Record<string, Record<string, Operation>>;
let components: Record<string, Schema>;

beforeAll(async () => {
  h = await startHarness({}, { worker: false });
  // The first account is the administrator and an approved teacher: every route's own checks let it through.
  admin = await h.signUp('teacher', 'Ada Admin');
  expect(admin.user.isAdmin).toBe(true);
  student = await h.signUp('student', 'Sam Student');
  const course = await createClass(h, admin, 'Hostile input');
  await joinClass(h, student, course.inviteCode);
  courseId = course.id;
  const lecture = await h.api('POST', '/api/lectures', { as: admin.token, body: { courseId, nameOfTopic: 'Walked' } });
  expect(lecture.status).toBe(201);
  lectureId = lecture.json._id;
  const document = await (await fetch(`${h.baseUrl}/api/openapi.json`)).json();
  paths = document.paths;
  components = document.components?.schemas ?? {};
});
afterAll(() => h?.close());

const NUL = 'ab\u0000cd';
const resolve = (schema: Schema | undefined): Schema | undefined =>
  schema?.$ref ? resolve(components[schema.$ref.split('/').at(-1) as string]) : schema;
const isText = (schema: Schema | undefined) => {
  const resolved = resolve(schema);
  const types = [resolved?.type, ...(resolved?.anyOf ?? []).map((one) => resolve(one)?.type)].flat();
  return types.includes('string') && !resolved?.enum && resolved?.const === undefined;
};
/** A value the schema takes, so the NUL is the only thing wrong with the request. */
function sample(schema: Schema | undefined): unknown {
  const resolved = resolve(schema);
  if (!resolved) return 'x';
  if (resolved.enum) return resolved.enum[0];
  if (resolved.const !== undefined) return resolved.const;
  if (resolved.anyOf) return sample(resolved.anyOf[0]);
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  if (type === 'object')
    return Object.fromEntries(Object.entries(resolved.properties ?? {}).map(([k, v]) => [k, sample(v)]));
  if (type === 'array') return [sample(resolved.items)];
  if (type === 'boolean') return true;
  if (type === 'number' || type === 'integer') return resolved.minimum ?? 1;
  if (resolved.format === 'email') return 'someone@example.test';
  return 'Sample text1';
}

/** Where a JSON body holds text: each path (`chapters.0.title` inside a list), however deep. */
function textPaths(schema: Schema | undefined, path: string[] = []): string[][] {
  const resolved = resolve(schema);
  if (!resolved) return [];
  if (path.length > 0 && isText(resolved)) return [path];
  if (resolved.anyOf)
    return textPaths(
      resolved.anyOf.find((one) => resolve(one)?.type !== 'null'),
      path,
    );
  if (resolved.type === 'array') return textPaths(resolved.items, [...path, '0']);
  return Object.entries(resolved.properties ?? {}).flatMap(([key, value]) => textPaths(value, [...path, key]));
}

/** A copy of `body` with `value` at `path`. */
function withValueAt(body: unknown, [head, ...rest]: string[], value: unknown): unknown {
  if (head === undefined) return value;
  const copy = (Array.isArray(body) ? [...body] : { ...(body as object) }) as Record<string, unknown>;
  copy[head] = withValueAt(copy[head], rest, value);
  return copy;
}

/** One request per text field: the operation with a NUL in that field and sample values everywhere else. */
function hostileRequests() {
  const requests: { name: string; method: string; path: string; body?: unknown; field: string }[] = [];
  for (const [template, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = operation.parameters ?? [];
      const pathWith = (name?: string) =>
        template.replace(/\{(\w+)\}/g, (_, param) =>
          param === name
            ? '%00'
            : param === 'courseId'
              ? courseId
              : template.startsWith('/api/lectures/')
                ? lectureId
                : 'abc123',
        );
      const query = (name?: string) =>
        params
          .filter((param) => param.in === 'query' && (param.required || param.name === name))
          .map(
            (param) =>
              `${param.name}=${param.name === name ? '%00' : encodeURIComponent(String(sample(param.schema)))}`,
          )
          .join('&');
      const url = (path: string, q: string) => (q ? `${path}?${q}` : path);
      const json = resolve(operation.requestBody?.content?.['application/json']?.schema);
      const body = json ? sample(json) : undefined;
      for (const param of params) {
        if (param.in === 'path' && isText(param.schema))
          requests.push({
            name: `${method} ${template} {${param.name}}`,
            method,
            path: url(pathWith(param.name), query()),
            body,
            field: param.name,
          });
        if (param.in === 'query' && isText(param.schema))
          requests.push({
            name: `${method} ${template} ?${param.name}`,
            method,
            path: url(pathWith(), query(param.name)),
            body,
            field: param.name,
          });
      }
      // A form's text fields, sent with a few bytes in its file field: the NUL is what is wrong with it.
      const form = resolve(operation.requestBody?.content?.['multipart/form-data']?.schema);
      for (const [name, property] of Object.entries(form?.properties ?? {})) {
        if (!isText(property) || property.format === 'binary') continue;
        const multipart = () => {
          const data = new FormData();
          for (const [field, value] of Object.entries(form?.properties ?? {})) {
            if (value.format === 'binary') data.append(field, new Blob([new Uint8Array(64)]), 'file.bin');
            else data.append(field, field === name ? NUL : field === 'courseId' ? courseId : 'Sample text1');
          }
          return data;
        };
        requests.push({
          name: `${method} ${template} ${name}`,
          method,
          path: url(pathWith(), query()),
          body: multipart(),
          field: name,
        });
      }
      for (const at of textPaths(json)) {
        const field = at.join('.');
        requests.push({
          name: `${method} ${template} ${field}`,
          method,
          path: url(pathWith(), query()),
          body: withValueAt(body, at, NUL),
          field,
        });
      }
    }
  }
  return requests;
}

test('a NUL in any text field the API describes is a 400 naming the field, and changes nothing', async () => {
  const requests = hostileRequests();
  const names = requests.map((request) => request.name);
  // The fields that answered 500 on PostgreSQL are among those walked: the walk really reaches them.
  for (const walked of [
    'patch /api/enrollments/{courseId}/notes notes',
    'post /api/enrollments/join inviteCode',
    'post /api/enrollments classCode',
    'get /api/invites/{code} {code}',
    'get /api/admin/users ?q',
    'post /api/users/register username',
    'post /api/users/login password',
    'get /api/search ?q',
    'put /api/lectures/{id}/chapters chapters.0.title',
  ])
    expect(names).toContain(walked);
  expect(requests.length).toBeGreaterThan(40);

  const before = h.snapshot();
  const answers = [];
  for (const request of requests) {
    // tus asks for its version header first; what follows it is what is checked here.
    const headers: Record<string, string> = request.path.startsWith('/api/uploads') ? { 'Tus-Resumable': '1.0.0' } : {};
    const result = await h.api(request.method.toUpperCase(), request.path, {
      as: admin.token,
      body: request.body,
      headers,
    });
    answers.push({
      name: request.name,
      status: result.status,
      shape: typeof result.json?.error === 'string' && result.json.message === result.json.error,
      field: typeof result.json?.fields?.[request.field],
    });
  }
  expect(answers.filter((answer) => answer.status !== 400 || !answer.shape || answer.field !== 'string')).toEqual([]);
  expect(h.snapshot()).toEqual(before);
});

test('notes keep their line breaks and tabs; a NUL or another control character in them is refused', async () => {
  const path = `/api/enrollments/${courseId}/notes`;
  const saved = await h.api('PATCH', path, { as: student.token, body: { notes: 'first line\n\tindented\r\nlast' } });
  expect(saved.status).toBe(200);
  expect(saved.json.notes).toBe('first line\n\tindented\r\nlast');
  for (const notes of [NUL, 'bell\u0007', 'escape\u001b[31m']) {
    const before = h.snapshot();
    const refused = await h.api('PATCH', path, { as: student.token, body: { notes } });
    expect({ notes, status: refused.status, code: refused.json.code }).toEqual({
      notes,
      status: 400,
      code: 'invalid_input',
    });
    expect(refused.json.fields.notes).toBe('The notes contain hidden characters. Please type them again.');
    expect(h.snapshot()).toEqual(before);
  }
  expect((await h.api('GET', path, { as: student.token })).json.notes).toBe('first line\n\tindented\r\nlast');
});
