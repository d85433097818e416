import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

import { WEB_DIST as WEB_DIST_DIR } from '../lib/paths.ts';

const WEB_DIST = WEB_DIST_DIR + path.sep;

/** Serves the built dashboard; any non-API path falls back to index.html for client-side routes. */
export default fp(
  async (app) => {
    if (!existsSync(`${WEB_DIST}index.html`)) {
      app.log.warn('web/dist is missing: run `npm run build` to serve the dashboard');
      return;
    }
    await app.register(fastifyStatic, { root: WEB_DIST, wildcard: false, index: false, maxAge: '1y', immutable: true });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      if (path.startsWith('/api/') || path === '/api' || request.method !== 'GET') {
        return reply.status(404).send({ error: `No route for ${request.method} ${path}`, code: 'NOT_FOUND' });
      }
      // index.html must not be cached, or a new release would keep serving old chunk names.
      return reply.header('cache-control', 'no-cache').sendFile('index.html', WEB_DIST, { maxAge: 0, immutable: false });
    });
  },
  { name: 'web', dependencies: ['database'] },
);
