// `npm run admin`: the administrator's command line (server/admin-cli.ts), compiled with the server
// (scripts/build-server.mjs) when the build is missing or older than the sources, then run in this
// same process: a command starts in about a second instead of loading a TypeScript compiler first.
import { runCompiled } from './build-server.mjs';

await runCompiled('admin');
