import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '../errors.ts';
import { OPERATIONS, TAGS } from './openapi-operations.ts';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';

/** Fastify's `/a/:id` as OpenAPI writes it, `/a/{id}`. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** The machine codes an error status can carry (the `code` of `{ error, code }`). */
function codesOf(status: number): string[] {
  return Object.entries(ERROR_CODES)
    .filter(([, s]) => s === status)
    .map(([code]) => code);
}

const SESSION_OR_TOKEN = [{ sessionCookie: [] }, { bearerToken: [] }];

/**
 * The API reference, generated from the routes' TypeBox schemas: the OpenAPI 3.1 document at
 * GET /api/openapi.json and an interactive reader at /api/docs (Swagger UI, served from this
 * process: no CDN, under the dashboard's Content-Security-Policy). Registered before the routes so
 * that it sees them all.
 */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Chime API',
          version: process.env.npm_package_version ?? '0.1.0',
          description:
            'Bare JSON bodies; errors are `{ error, code }` with a 4xx status and a stable machine `code`. ' +
            'Authenticate with the session cookie (the dashboard) or `Authorization: Bearer <token>`: a session token from sign-in, ' +
            'or a personal access token (`chime_pat_…`, docs/api.md) limited to the reminder routes its scopes allow ' +
            '(`x-token-scope` on each operation; 403 TOKEN_SCOPE without it, 403 TOKEN_NOT_ALLOWED on routes no token may use).',
        },
        tags: TAGS,
        components: {
          securitySchemes: {
            sessionCookie: {
              type: 'apiKey',
              in: 'cookie',
              name: 'chime_session',
              description: 'The dashboard’s session. An unsafe method must also carry an Origin (or Referer) of this server, else 403 CSRF_REJECTED.',
            },
            bearerToken: {
              type: 'http',
              scheme: 'bearer',
              description: 'A session token (POST /api/auth/login) or a personal access token `chime_pat_…` (POST /api/tokens).',
            },
          },
        },
      },
      transform: ({ schema, url, route }) => {
        if (!schema || schema.hide) return { schema, url };
        const key = `${[route.method].flat()[0]} ${openApiPath(url)}`;
        const text = OPERATIONS[key];
        const scope = route.config?.tokenScope;
        // A copy: the route's own schema objects also serve validation and serialization.
        const documented: Record<string, unknown> = { ...schema };
        if (text) {
          documented.tags = [text.tag];
          documented.summary = text.summary;
          documented.operationId = key.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '');
          if (!text.public) documented.security = SESSION_OR_TOKEN;
          else documented.security = [];
        }
        if (scope) documented['x-token-scope'] = scope;
        const accessNote = text?.public
          ? 'Public: no credential needed.'
          : scope
            ? `Session, or an access token with the \`${scope}\` scope.`
            : 'Session only: access tokens get 403 TOKEN_NOT_ALLOWED.';
        documented.description = accessNote;
        if (schema.response) {
          const responses: Record<string, unknown> = {};
          for (const [status, body] of Object.entries(schema.response as Record<string, object>)) {
            const codes = Number(status) >= 400 ? codesOf(Number(status)) : [];
            responses[status] = codes.length > 0 ? { ...body, description: `\`code\`: ${codes.join(', ')}` } : body;
          }
          documented.response = responses;
        }
        return { schema: documented, url };
      },
    });

    app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());

    await app.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      uiConfig: { deepLinking: true, defaultModelsExpandDepth: 0, docExpansion: 'list' },
      // Our own CSP (security-headers.ts) stays in force: the UI's page has no inline script.
      staticCSP: false,
      theme: { title: 'Chime API reference' },
      uiHooks: {
        // The UI's redirect from static/index.html to its page keeps the query string, and then its
        // pattern no longer matches: .../index.html?x=1 answered a redirect to itself, forever.
        onRequest: async (request, reply) => {
          if (request.url.startsWith(`${DOCS_PREFIX}/static/index.html?`)) return reply.redirect(`${DOCS_PREFIX}/`);
        },
      },
    });
  },
  { name: 'openapi', dependencies: ['auth'] },
);
