// `npm start`: compile what a fresh clone lacks (or what changed since the last build), then run
// the compiled server in this same process, so the process you see is the product itself.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...p) => path.join(root, ...p);

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const bundle = at('dist', 'main.mjs');
const sourcesChanged = Math.max(statSync(at('main.ts')).mtimeMs, newestMtime(at('server')), newestMtime(at('bot')), newestMtime(at('migrations')));
if (!existsSync(bundle) || statSync(bundle).mtimeMs < sourcesChanged) {
  console.warn('Compiling the server...');
  const { buildServer } = await import('./build-server.mjs');
  await buildServer();
}

const serveWeb = !/^(0|false|no|off)$/i.test(process.env.SERVE_WEB ?? '');
const webIndex = at('web', 'dist', 'index.html');
const webChanged = Math.max(newestMtime(at('web', 'src')), newestMtime(at('locales')));
if (serveWeb && (!existsSync(webIndex) || statSync(webIndex).mtimeMs < webChanged)) {
  console.warn('Building the dashboard...');
  const result = spawnSync('npm', ['run', 'build:web', '--silent'], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) console.error('The dashboard build failed; the API still runs.');
}

await import(pathToFileURL(bundle).href);
