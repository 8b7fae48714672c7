import type { Context, Hono } from 'hono';
import { generateSpecs } from 'hono-openapi';
import type { OpenAPIV3_1 } from 'openapi-types';
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
      defaultValidationErrorResponse: { ...errorResponse, description: 'The input failed validation.' },
      documentation: {
        openapi: '3.1.0',
        info: {
          title: 'Classroom API',
          version: VERSION,
          description:
            'Self-hosted online classroom with video lectures. Sign in with `POST /api/users/login` and send the ' +
            'token as a bearer token (the web app uses the HttpOnly `token` cookie). Every refusal answers the ' +
            'same error shape.',
          license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
        },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            cookie: { type: 'apiKey', in: 'cookie', name: 'token' },
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
