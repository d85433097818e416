// `npm run migrate`: applies the pending migrations to the database DATABASE_URL names
// (server/db/migrate-cli.ts), compiled with the server like `npm run admin` (scripts/admin.mjs),
// so it starts without loading a TypeScript compiler first.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServerIfStale } from './build-server.mjs';

await buildServerIfStale();
await import(pathToFileURL(path.join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'migrate.mjs')).href);
