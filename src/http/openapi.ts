import type { Context, Hono } from 'hono';
import { type DescribeRouteOptions, describeRoute, generateSpecs, resolver } from 'hono-openapi';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ZodType } from 'zod';
import { TOKEN_LIFETIME_SECONDS } from '../auth/tokens';
import type { AppEnv } from '../deps';
import { VERSION } from '../lib/version';

const errorResponse: OpenAPIV3_1.ResponseObject = {
  description: 'Refused: `error` and `message` say why in words a person can read; `code` is stable for programs.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['error', 'code', 'message'],
        properties: {
          error: { type: 'string' },
          code: { type: 'string', examples: ['invalid_input', 'not_found', 'forbidden'] },
          message: { type: 'string' },
          fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'Field → problem.' },
        },
      },
    },
  },
};

type Operation = { tags?: string[]; responses?: Record<string, unknown> };

/** How src/auth/sessions.ts sets the `token` cookie (setTokenCookie, reachedOverHttps), said as it is. */
export const TOKEN_COOKIE =
  'Signing in (login, verify-otp, reset-password, school sign-in) and changing the password also set the token as ' +
  `the cookie \`token\`: \`Path=/\`, \`Max-Age=${TOKEN_LIFETIME_SECONDS}\` (7 days, the token's lifetime), ` +
  '`SameSite=Lax`, `Secure` when the request reached the server over https (directly, or through a proxy that ' +
  'says so in `X-Forwarded-Proto`), and not `HttpOnly`: the web app reads it to send it as the bearer token. ' +
  'Logging out clears it (`Max-Age=0`).';

/**
 * `/api/openapi.json`: the OpenAPI 3.1 description of every mounted route, made by hono-openapi from the routes
 * themselves and the zod schemas that `validate()` enforces on them, so it cannot drift from the code. Made once,
 * on the first request, when every route is mounted.
 */
export function openApiDocument(app: Hono<AppEnv>) {
  let document: Promise<unknown> | undefined;
  const build = async () => {
    const specs = await generateSpecs(app, {
      includeEmptyPaths: true,
      exclude: ['/api/openapi.json', '/api/docs'],
      // tus's OPTIONS (discovery) is part of the API: described like the rest.
      excludeMethods: [],
      defaultValidationErrorResponse: { ...errorResponse, description: 'The input failed validation.' },
      documentation: {
        openapi: '3.1.0',
        info: {
          title: 'Classroom API',
          version: VERSION,
          description:
            'Self-hosted online classroom with video lectures. Sign in with `POST /api/users/login` and send the ' +
            `token as a bearer token. ${TOKEN_COOKIE} Every refusal answers the same error shape.`,
          license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
        },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            cookie: { type: 'apiKey', in: 'cookie', name: 'token', description: TOKEN_COOKIE },
          },
        },
        security: [{ bearer: [] }, { cookie: [] }],
      },
    });
    // One tag per area (`/api/courses/...` → courses) and the shared error shape on every operation.
    for (const [path, item] of Object.entries(specs.paths ?? {})) {
      const area = path.split('/')[path.startsWith('/api/') ? 2 : 1] ?? 'app';
      for (const operation of Object.values(item ?? {}) as Operation[]) {
        if (typeof operation !== 'object' || operation === null) continue;
        operation.tags ??= [area];
        operation.responses = { ...operation.responses, default: errorResponse };
      }
    }
    return specs;
  };
  return async (c: Context) => {
    document ??= build();
    return c.json(await document);
  };
}

/**
 * The request body of a multipart route for the description (those routes read their form themselves, so no zod
 * schema describes it): the file field, and any short text fields.
 */
export function multipartBody(fileField: string, fields: Record<string, string> = {}) {
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object' as const,
          required: [fileField],
          properties: {
            [fileField]: { type: 'string' as const, format: 'binary' },
            ...Object.fromEntries(
              Object.entries(fields).map(([name, description]) => [name, { type: 'string' as const, description }]),
            ),
          },
        },
      },
    },
  };
}

/** An answer that is not JSON: its media type and what it is (a file, a page, a playlist). */
type OtherAnswer = { media: string; description: string };
const statusWords: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  206: 'Partial content',
  302: 'Redirect',
};

/**
 * The route's description with what it answers: per status, the zod schema of its JSON (the contract's, the same
 * that types the handler's `c.json` and so the web's client), another media type, or a string for an empty answer.
 */
export function answers(
  responses: Record<number, ZodType | OtherAnswer | string>,
  spec: Omit<DescribeRouteOptions, 'responses'> = {},
) {
  const described: NonNullable<DescribeRouteOptions['responses']> = {};
  for (const [status, answer] of Object.entries(responses)) {
    const words = statusWords[Number(status)] ?? 'Answer';
    if (typeof answer === 'string') described[status] = { description: answer };
    else if ('media' in answer && typeof answer.media === 'string') {
      described[status] = {
        description: answer.description,
        content: { [answer.media]: { schema: { type: 'string', format: 'binary' } } },
      };
    } else {
      described[status] = {
        description: words,
        content: { 'application/json': { schema: resolver(answer as ZodType) } },
      };
    }
  }
  return describeRoute({ ...spec, responses: described });
}
