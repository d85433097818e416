/**
 * Vitest globalSetup: makes sure `web/dist` is a build of the current sources before any browser
 * test starts. Rebuilds only when dist is missing or older than web/src, locales or the Vite config.
 * The build goes to a temp folder and is swapped in under a lock, so parallel runs (other helpers,
 * CI) never see a half-written dist.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST_INDEX = path.join(ROOT, 'web/dist/index.html');
const INPUTS = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'locales'];
const LOCK = '/tmp/chime-web-build.lock';

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function webBuildIsStale(): boolean {
  if (!existsSync(DIST_INDEX)) return true;
  const built = statSync(DIST_INDEX).mtimeMs;
  return INPUTS.some((input) => newestMtime(path.join(ROOT, input)) > built);
}

export function buildWeb(): void {
  const tmp = path.join(ROOT, 'web', `.dist-tmp-${process.pid}`);
  const script = [
    // Re-check under the lock: a parallel run may have just built it.
    `if [ -f web/dist/index.html ] && [ -z "$(find web/src web/public web/index.html web/vite.config.ts locales -newer web/dist/index.html 2>/dev/null | head -n 1)" ]; then exit 0; fi`,
    `npx vite build --config web/vite.config.ts --outDir "${tmp}" --emptyOutDir --logLevel warn`,
    `rm -rf web/.dist-old && { [ ! -d web/dist ] || mv web/dist web/.dist-old; } && mv "${tmp}" web/dist && rm -rf web/.dist-old`,
  ].join('\n');
  execFileSync('flock', [LOCK, 'sh', '-ec', script], { cwd: ROOT, stdio: 'inherit' });
}

export default function setup(): void {
  if (webBuildIsStale()) buildWeb();
}
