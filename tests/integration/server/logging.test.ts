/**
 * docs/operations.md "Logs": readable lines on a terminal, JSON otherwise, requests at debug, one start line
 * that says where, which database (without a password), which roles and what is configured.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { describeDatabase, RequestLogController, resolveLogFormat, startSummary } from '../../../server/logging.ts';
import { startChime } from '../../helpers/chime-process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'chime-logging-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('a start', () => {
  it('without a terminal writes one JSON object a line, the start line once, and requests at debug', { timeout: 120_000 }, async () => {
    const chime = startChime(dir, { DATABASE_URL: path.join(dir, 'json.db'), CHIME_ROLES: 'web', LOG_LEVEL: 'debug' });
    try {
      const url = await chime.url();
      await chime.waitFor(/Chime is running/);
      expect((await fetch(`${url}/healthz?code=secret`)).status).toBe(200);
      await chime.waitFor(/"msg":"request completed"/);
    } finally {
      await chime.stop();
    }
    const lines = chime.output().split('\n').filter((l) => l.startsWith('{'));
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const starts = records.filter((r) => String(r.msg).startsWith('Chime is running'));
    expect(starts).toHaveLength(1);
    expect(starts[0]).toMatchObject({
      level: 30,
      public_url: 'http://localhost:0',
      database: `SQLite ${path.join(dir, 'json.db')}`,
      roles: 'web',
      discord: 'not configured (missing DISCORD_TOKEN, DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET)',
      email: 'not configured (missing SMTP_URL, MAIL_FROM)',
    });
    const requests = records.filter((r) => r.msg === 'request completed');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ level: 20, req: { method: 'GET', path: '/healthz' }, res: { statusCode: 200 } });
    expect(records.some((r) => r.msg === 'incoming request')).toBe(false);
  });

  it.skipIf(!hasScript)('on a terminal writes readable lines and no request line at the default level', { timeout: 120_000 }, async () => {
    const chime = startChime(dir, { DATABASE_URL: path.join(dir, 'tty.db'), CHIME_ROLES: 'web' }, { tty: true });
    try {
      const url = await chime.url();
      await chime.waitFor(/Chime is running/);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      await chime.stop();
    }
    const output = chime.output();
    // Whatever the colours: time, level, the message and its fields on one line.
    // eslint-disable-next-line no-control-regex
    const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?\] INFO: Chime is running at http:\/\/localhost:0 .*"roles":"web"/m);
    expect(plain).not.toMatch(/^\{"level"/m);
    expect(plain).not.toMatch(/request completed/);
  });
});

describe('log settings', () => {
  it('LOG_FORMAT=auto follows the terminal; json and pretty force it', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT must be auto, pretty or json/);
  });

  it('names the database without the PostgreSQL password', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://chime:s3cret@db.internal:5432/chime?sslpassword=k3y&sslmode=require' });
    const summary = JSON.stringify(startSummary(config));
    expect(summary).not.toContain('s3cret');
    expect(summary).not.toContain('k3y');
    expect(describeDatabase(config.databaseUrl)).toBe('PostgreSQL postgres://db.internal:5432/chime?sslpassword=redacted&sslmode=require');
    expect(describeDatabase('sqlite:./data/chime.db')).toBe('SQLite ./data/chime.db');
  });
});

describe('request lines', () => {
  async function requestLevels(path: string): Promise<Array<{ level: number; msg: string }>> {
    const lines: Array<{ level: number; msg: string }> = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream }, logController: new RequestLogController(40) });
    app.get('/fast', async () => ({ ok: true }));
    // Slower than the 40 ms threshold given above: the handler takes 60 ms.
    app.get('/slow', () => new Promise((resolve) => setTimeout(() => resolve({ ok: true }), 60)));
    app.get('/broken', async (_req, reply) => reply.code(503).send({ error: 'down' }));
    await app.inject({ method: 'GET', url: path });
    await app.close();
    return lines.filter((l) => l.msg !== 'Server listening at');
  }

  it('a quick answer is not logged at info; a slow one is a warning; a server error stays at info', async () => {
    expect(await requestLevels('/fast')).toEqual([]);
    expect(await requestLevels('/slow')).toEqual([expect.objectContaining({ level: 40, msg: 'slow request' })]);
    expect(await requestLevels('/broken')).toEqual([expect.objectContaining({ level: 30, msg: 'request completed' })]);
  });
});
