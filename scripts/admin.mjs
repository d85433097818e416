// `npm run admin`: the administrator's command line (server/admin-cli.ts), compiled with the server
// (scripts/build-server.mjs) when the build is missing or older than the sources, then run in this
// same process: a command starts in about a second instead of loading a TypeScript compiler first.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServerIfStale } from './build-server.mjs';

await buildServerIfStale();
await import(pathToFileURL(path.join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'admin.mjs')).href);
