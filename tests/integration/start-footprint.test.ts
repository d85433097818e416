/**
 * What a start without Discord, SMTP or PostgreSQL settings loads (the RSS goal of README
 * "Performance"): `pg`, `nodemailer`, `@discordjs/rest` (with its own undici), discord.js and
 * @simplewebauthn/server are loaded on first use (server/lib/load-on-use.ts, the bot's lazy import), since each costs about
 * 10 MB in every thread that loads it. The production bundle runs as `npm start` runs it, with a
 * preload that lists every module each thread loads.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/repo-root.ts';

const ROOT = REPO_ROOT;
const PRELOAD = fileURLToPath(new URL('../helpers/module-trace/preload.mjs', import.meta.url));
/** The packages a deployment may never use; none may load at start without its settings. */
const ON_USE = /(?:^require |\/node_modules\/)(pg|pg-pool|nodemailer|@discordjs\/[\w-]+|discord\.js|@simplewebauthn\/server)(?:\/|$)/m;

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'chime-footprint-'));
  // @ts-expect-error plain JS build script without types
  const { buildServer } = await import('../../scripts/build-server.mjs');
  await buildServer();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts dist/main.mjs with `env`, waits for `until` in its output (or its exit), stops it; the modules it loaded. */
async function modulesLoaded(name: string, env: Record<string, string>, until: RegExp): Promise<{ trace: string; output: string }> {
  const traceFile = path.join(dir, `${name}.trace`);
  const child = spawn(process.execPath, ['--max-semi-space-size=2', '--import', PRELOAD, 'dist/main.mjs'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: dir, MODULE_TRACE_FILE: traceFile, HOST: '127.0.0.1', PORT: '0', SERVE_WEB: 'false', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${until} within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
  // Both threads loaded all they load at start once the delivery thread answers /metrics.
  const url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  if (url) expect((await fetch(`${url}/metrics`)).status).toBe(200);
  child.kill('SIGTERM');
  await exited;
  return { trace: readFileSync(traceFile, 'utf8'), output };
}

describe('a start without Discord, SMTP or PostgreSQL', () => {
  it('loads none of their packages, in the API thread or the delivery thread', async () => {
    const { trace, output } = await modulesLoaded('plain', { DATABASE_URL: path.join(dir, 'chime.db') }, /Chime is running/);
    expect(output).toContain('Chime is running');
    // The trace saw both threads start: the worker's own entry, and the packages both load.
    expect(trace).toMatch(/import file:.*\/dist\/scheduler-worker\.mjs/);
    expect(trace).toMatch(/\/node_modules\/better-sqlite3\//);
    expect(trace.match(ON_USE)?.[0] ?? null).toBeNull();
  }, 60_000);

  it('(the trace sees a package that is loaded: pg with a postgres:// URL, even one that is down)', async () => {
    const { trace, output } = await modulesLoaded('postgres', { DATABASE_URL: 'postgres://chime:pw@127.0.0.1:1/chime' }, /could not start/);
    expect(output).toContain('Chime could not start');
    expect(trace).toMatch(/^require pg$/m);
    expect(trace.match(ON_USE)?.[1]).toBe('pg');
  }, 60_000);
});
