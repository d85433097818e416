/**
 * Dashboard bundle sizes: the JavaScript a first visit loads (index.html's module script and its
 * modulepreloads) and every lazy chunk, raw and gzipped. Goal (issue 5): initial JS <= 200 KB gzipped.
 */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'web', 'dist');

export function run() {
  if (!existsSync(path.join(dist, 'index.html'))) execSync('npm run build:web --silent', { cwd: root, stdio: 'inherit' });
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const initial = new Set([...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]!));
  const kb = (n: number) => Math.round(n / 102.4) / 10;
  const rows = readdirSync(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js') || f.endsWith('.css'))
    .map((f) => {
      const buf = readFileSync(path.join(dist, 'assets', f));
      return { file: f, initial: initial.has(`assets/${f}`), raw_kb: kb(statSync(path.join(dist, 'assets', f)).size), gzip_kb: kb(gzipSync(buf).length) };
    })
    .sort((a, b) => b.gzip_kb - a.gzip_kb);
  const initialGzip = rows.filter((r) => r.initial).reduce((sum, r) => sum + r.gzip_kb, 0);
  return { initial_js_gzip_kb: Math.round(initialGzip * 10) / 10, chunks: rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { initial_js_gzip_kb, chunks } = run();
  console.log(`Dashboard: initial JavaScript ${initial_js_gzip_kb} KB gzipped (goal <= 200 KB)`);
  console.table(chunks.slice(0, 15));
}
