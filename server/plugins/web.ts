import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

import { WEB_DIST as WEB_DIST_DIR } from '../lib/paths.ts';

const WEB_DIST = WEB_DIST_DIR + path.sep;
/** The service worker, what it imports, and the web app manifest (web/public). */
const UNHASHED = new Set(['/sw.js', '/sw-logic.js', '/manifest.webmanifest']);

declare module 'fastify' {
  interface FastifyInstance {
    /** Present when the dashboard is built: answers a page request with index.html. */
    spaFallback?: (reply: FastifyReply) => FastifyReply;
  }
}

/** Serves the built dashboard; any non-API path falls back to index.html for client-side routes. */
export default fp(
  async (app) => {
    if (!existsSync(`${WEB_DIST}index.html`)) {
      app.log.warn('web/dist is missing: run `npm run build` to serve the dashboard');
      return;
    }
    await app.register(fastifyStatic, { root: WEB_DIST, wildcard: false, index: false, maxAge: '1y', immutable: true });
    // Files with fixed names, not hashed ones: cached a year, a new release's service worker would never load.
    app.addHook('onSend', async (request, reply, payload) => {
      if (UNHASHED.has(request.url)) reply.header('cache-control', 'no-cache');
      return payload;
    });
    // The errors plugin owns the not-found handler and hands page requests to this fallback.
    app.decorate('spaFallback', (reply: FastifyReply) =>
      // index.html must not be cached, or a new release would keep serving old chunk names.
      reply.header('cache-control', 'no-cache').sendFile('index.html', WEB_DIST, { maxAge: 0, immutable: false }),
    );
  },
  { name: 'web', dependencies: ['database'] },
);
