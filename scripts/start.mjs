// `npm start`: compile what a fresh clone lacks (or what changed since the last build), then run
// the compiled server in this same process, so the process you see is the product itself.
import { existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...p) => path.join(root, ...p);

const { buildServerIfStale, newestMtime } = await import('./build-server.mjs');
await buildServerIfStale();

const serveWeb = !/^(0|false|no|off)$/i.test(process.env.SERVE_WEB ?? '');
const webIndex = at('web', 'dist', 'index.html');
const webChanged = Math.max(newestMtime(at('web', 'src')), newestMtime(at('locales')));
if (serveWeb && (!existsSync(webIndex) || statSync(webIndex).mtimeMs < webChanged)) {
  console.warn('Building the dashboard...');
  const result = spawnSync('npm', ['run', 'build:web', '--silent'], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) console.error('The dashboard build failed; the API still runs.');
}

await import(pathToFileURL(at('dist', 'main.mjs')).href);
