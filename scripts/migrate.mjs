// `npm run migrate`: applies the pending migrations to the database DATABASE_URL names
// (server/db/migrate-cli.ts), compiled with the server like `npm run admin` (scripts/admin.mjs),
// so it starts without loading a TypeScript compiler first.
import { runCompiled } from './build-server.mjs';

await runCompiled('migrate');
