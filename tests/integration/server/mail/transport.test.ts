// Runs on SQLite only: SMTP failures do not depend on the database (vitest.config.ts).
/**
 * The SMTP side of email against real sockets on 127.0.0.1: a server that is down or refuses
 * Chime's login gives a coded error, and the SMTP password never reaches an answer or the logs.
 * Deleting an account deletes its email data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, LOG_REDACT } from '../../../../server/app.ts';
import { loadConfig } from '../../../../server/config.ts';
import { signUp } from '../../../helpers/server.ts';
import { type SmtpSink, startSmtpSink } from '../../../helpers/smtp-sink.ts';

const PASSWORD = 'hunter2-smtp-secret';

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A real app (as in production, with its pino logger) whose log lines are kept in `logs`. */
async function startLogged(smtpUrl: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-mail-'));
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const config = loadConfig({ PORT: '0', DATABASE_URL: path.join(dir, 'chime.db'), SMTP_URL: smtpUrl, MAIL_FROM: 'chime@example.com', LOG_LEVEL: 'trace' }, { serveWeb: false, schedulerEnabled: false });
  const app = await buildApp({ config, logger: { level: 'trace', stream, redact: { paths: LOG_REDACT, censor: '[redacted]' } } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return { app, url, logs, close: async () => (await app.close(), rmSync(dir, { recursive: true, force: true })) };
}

describe('SMTP failures', () => {
  let down: Awaited<ReturnType<typeof startLogged>>;
  let refusing: Awaited<ReturnType<typeof startLogged>>;
  let sink: SmtpSink;

  beforeAll(async () => {
    down = await startLogged(`smtp://chime:${PASSWORD}@127.0.0.1:${await closedPort()}`);
    sink = await startSmtpSink();
    refusing = await startLogged(`smtp://chime:${PASSWORD}@127.0.0.1:${sink.port}`);
  });
  afterAll(async () => {
    await down?.close();
    await refusing?.close();
    await sink?.close();
  });

  it('an unreachable server answers EMAIL_SMTP_UNAVAILABLE, without the password anywhere', async () => {
    const user = await signUp(down.url);
    const res = await user.api.post('/api/email/addresses/confirmation', { address: 'friend@example.com' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('EMAIL_SMTP_UNAVAILABLE');
    expect(res.body.error).toMatch(/could not be reached/);
    // The reset mail leaves in the background: wait for its failure to be logged.
    expect((await user.api.post('/api/auth/password-reset', { email: user.email })).status).toBe(202);
    for (let i = 0; i < 200 && !down.logs.some((l) => l.includes('password reset mail not sent')); i++) await new Promise((r) => setTimeout(r, 25));
    expect(down.logs.some((l) => l.includes('password reset mail not sent'))).toBe(true);
    expect(down.logs.join('\n')).not.toContain(PASSWORD);
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
  });

  it('a refused login is EMAIL_SMTP_UNAVAILABLE (retried), not counted in the hourly cap', async () => {
    const user = await signUp(refusing.url);
    sink.refuseLogins = true;
    try {
      const result = await refusing.app.mail!.send(user.id, 'reminder', 'friend@example.com', { subject: 's', text: 't', html: '<p>t</p>' });
      expect(result).toMatchObject({ ok: false, code: 'EMAIL_SMTP_UNAVAILABLE', retryable: true, error: expect.stringContaining("refused Chime's login") });
      expect(JSON.stringify(result)).not.toContain(PASSWORD);
    } finally {
      sink.refuseLogins = false;
    }
    expect(await refusing.app.db.selectFrom('email_sends').selectAll().where('account_id', '=', user.id).execute()).toEqual([]);
    const ok = await refusing.app.mail!.send(user.id, 'reminder', 'friend@example.com', { subject: 's', text: 't', html: '<p>t</p>' });
    expect(ok).toEqual({ ok: true });
    expect(await refusing.app.db.selectFrom('email_sends').selectAll().where('account_id', '=', user.id).execute()).toHaveLength(1);
    expect(refusing.logs.join('\n')).not.toContain(PASSWORD);
  });

  it('deleting the account deletes its addresses, links and send log', async () => {
    const user = await signUp(refusing.url);
    expect((await user.api.post('/api/email/addresses/confirmation', { address: 'gone@example.com' })).status).toBe(202);
    expect((await user.api.post('/api/auth/password-reset', { email: user.email })).status).toBe(202);
    await sink.waitFor((m) => m.to.includes(user.email.toLowerCase()));
    expect((await user.api.delete('/api/account')).status).toBe(200);
    const db = refusing.app.db;
    for (const table of ['email_addresses', 'email_sends', 'password_reset_tokens'] as const) {
      expect(await db.selectFrom(table).selectAll().where('account_id', '=', user.id).execute(), table).toEqual([]);
    }
  });
});
