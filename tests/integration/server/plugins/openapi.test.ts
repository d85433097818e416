// Runs on SQLite only: the OpenAPI document is built from the route schemas, not the database (vitest.config.ts).
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../../server/plugins/openapi-operations.ts';
import { openApiPath } from '../../../../server/plugins/openapi.ts';
import { client, startTestServer, type TestServer } from '../../../helpers/server.ts';

/** The generated API reference (docs/api.md): a valid OpenAPI 3.1 document that leaves no route out. */

/** Routes that are not the API: the reference itself and its reader. */
const NOT_DOCUMENTED = (url: string) => url === '/api/openapi.json' || url === '/api/docs' || url.startsWith('/api/docs/');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

describe('OpenAPI document', () => {
  let server: TestServer;
  let doc: any;

  beforeAll(async () => {
    server = await startTestServer();
    const res = await client(server.url).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = res.body;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every registered route, and nothing that is not one', () => {
    const registered = server.app
      .registeredRoutes()
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !NOT_DOCUMENTED(r.url))
      .map((r) => `${r.method} ${openApiPath(r.url)}`);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(registered.length).toBeGreaterThan(50);
    expect(registered.filter((key) => !documented.includes(key))).toEqual([]);
    expect(documented.filter((key) => !registered.includes(key))).toEqual([]);
  });

  it('gives every operation a tag, a summary and who may call it', () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const key = `${method.toUpperCase()} ${path}`;
        expect(OPERATIONS[key], key).toBeDefined();
        expect(op.summary, key).toBe(OPERATIONS[key]!.summary);
        expect(op.tags, key).toEqual([OPERATIONS[key]!.tag]);
        expect(op.security, key).toEqual(OPERATIONS[key]!.public ? [] : [{ sessionCookie: [] }, { bearerToken: [] }]);
      }
    }
    expect(Object.keys(OPERATIONS).filter((key) => !doc.paths[key.split(' ')[1]!]?.[key.split(' ')[0]!.toLowerCase()])).toEqual([]);
  });

  it('has both security schemes and marks the scope a token needs', () => {
    expect(doc.components.securitySchemes).toEqual({
      sessionCookie: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'chime_session' }),
      bearerToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(doc.paths['/api/reminders'].get['x-token-scope']).toBe('reminders:read');
    expect(doc.paths['/api/reminders'].post['x-token-scope']).toBe('reminders:write');
    expect(doc.paths['/api/account'].get['x-token-scope']).toBeUndefined();
    expect(doc.paths['/api/account'].get.description).toMatch(/TOKEN_NOT_ALLOWED/);
  });

  it('describes parameters, bodies, answers and error codes from the route schemas', () => {
    const create = doc.paths['/api/reminders'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['date', 'time', 'message']));
    expect(create.responses['201'].content['application/json'].schema.properties.next_fire_utc).toBeDefined();
    expect(create.responses['403'].description).toMatch(/TOKEN_SCOPE/);
    expect(create.responses['404'].description).toMatch(/REMINDER_NOT_FOUND/);
    expect(create.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toContain('header:idempotency-key');
    const one = doc.paths['/api/reminders/{id}'].get;
    expect(one.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    const tokens = doc.paths['/api/tokens'].post;
    expect(tokens.requestBody.content['application/json'].schema.properties.expires_in_days).toBeDefined();
    expect(tokens.responses['409'].description).toMatch(/TOKEN_LIMIT/);
  });

  it('serves the interactive reference from this server', async () => {
    const api = client(server.url);
    const page = await fetch(`${server.url}/api/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/swagger-ui/i);
    // Everything it loads is on this server: no other host in any src or href.
    expect([...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((u) => /^(https?:)?\/\//.test(u!))).toEqual([]);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect((await api.get('/api/docs/static/swagger-ui-bundle.js')).status).toBe(200);
  });
});
