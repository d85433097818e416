/**
 * Vitest globalSetup of the `server` and `postgres` projects: compiles the server to dist/ when it
 * is older than the sources, once before any test, so that tests which run Chime as an
 * administrator does (`npm start`, `npm run admin`: tests/helpers/chime-process.ts) find it built
 * and never compile it several at a time. Under a lock: both projects' setups (and another run in
 * the same folder) may start together.
 */
import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from './repo-root.ts';

const LOCK = '/tmp/chime-server-build.lock';

export default function setup(): void {
  execFileSync('flock', [LOCK, process.execPath, '--input-type=module', '-e', "await (await import('./scripts/build-server.mjs')).buildServerIfStale();"], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}
