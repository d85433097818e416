/**
 * docs/operations.md "Administration": `npm run admin -- doctor` checks each setting against what it names
 * (the fake Discord, a real SMTP server, this Chime's own /healthz) and says what to fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Check, checkWebPush, doctorCommand, runDoctor } from '../../../../server/admin/doctor.ts';
import { loadConfig } from '../../../../server/config.ts';
import { type FakeDiscord, startFakeDiscord } from '../../../helpers/fake-discord/index.ts';
import { startTestServer, type TestServer } from '../../../helpers/server.ts';
import { type SmtpSink, startSmtpSink } from '../../../helpers/smtp-sink.ts';
import { refusedUrl } from '../../../helpers/webhook-sink.ts';

let server: TestServer;
let fake: FakeDiscord;
let smtp: SmtpSink;

beforeAll(async () => {
  [server, fake, smtp] = await Promise.all([startTestServer(), startFakeDiscord(), startSmtpSink()]);
});
afterAll(async () => {
  await Promise.all([server?.close(), fake?.close(), smtp?.close()]);
});

/** The settings of the running test server, with `env` on top. */
function settings(env: Record<string, string>) {
  return loadConfig({
    DATABASE_URL: server.config.databaseUrl,
    PUBLIC_URL: server.url,
    DISCORD_API_URL: fake.apiUrl,
    DISCORD_TOKEN: fake.botToken,
    DISCORD_CLIENT_ID: fake.clientId,
    DISCORD_CLIENT_SECRET: fake.clientSecret,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Chime <chime@example.com>',
    ...env,
  });
}
const byName = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe('doctor', () => {
  it('with every setting right, says so and exits 0', async () => {
    const result = await doctorCommand(settings({}));
    const checks = byName((result.data as { checks: Check[] }).checks);
    expect(checks).toMatchObject({
      database: { status: 'ok' },
      migrations: { status: 'ok' },
      disk: { status: expect.stringMatching(/^(ok|warn)$/) },
      discord: { status: 'ok' },
      'discord application': { status: 'ok' },
      smtp: { status: 'ok' },
      'public url': { status: 'ok' },
      clock: { status: 'ok', detail: expect.stringMatching(/(Discord's|the PostgreSQL server's) clock/) },
    });
    expect(result.exitCode).toBe(0);
    expect(result.text).toMatch(/^\[ok {2}\] discord: DISCORD_TOKEN signs in as the bot/m);
  });

  it('a wrong Discord token: what is wrong and where to get the right one; exit 1', async () => {
    const result = await doctorCommand(settings({ DISCORD_TOKEN: 'not-the-token' }));
    expect(result.exitCode).toBe(1);
    expect(byName((result.data as { checks: Check[] }).checks).discord).toEqual({
      name: 'discord',
      status: 'fail',
      detail: 'Discord refuses DISCORD_TOKEN (401 Unauthorized): it is wrong, or was reset.',
      fix: expect.stringContaining('Reset Token) into DISCORD_TOKEN'),
    });
    expect(result.text).toContain('[FAIL] discord: Discord refuses DISCORD_TOKEN');
    expect(result.text).not.toContain('not-the-token');
  });

  it("an application id that is not the token's application", async () => {
    const checks = byName(await runDoctor(settings({ DISCORD_CLIENT_ID: '123456789012345678' })));
    expect(checks['discord application']).toMatchObject({ status: 'fail', detail: `DISCORD_CLIENT_ID is 123456789012345678, but DISCORD_TOKEN belongs to application ${fake.clientId} (Chime).` });
  });

  it('an SMTP server out of reach, and one that refuses the login', async () => {
    const port = new URL(await refusedUrl()).port;
    const unreachable = byName(await runDoctor(settings({ SMTP_URL: `smtp://chime:hunter2@127.0.0.1:${port}` }))).smtp!;
    expect(unreachable).toMatchObject({ status: 'fail', detail: expect.stringMatching(new RegExp(`^The mail server could not be reached: .*ECONNREFUSED.*\\(127\\.0\\.0\\.1:${port}\\)\\.$`)) });
    expect(unreachable.fix).toContain('Check the host and port in SMTP_URL');
    expect(JSON.stringify(unreachable)).not.toContain('hunter2');

    smtp.refuseLogins = true;
    try {
      const refused = byName(await runDoctor(settings({ SMTP_URL: smtp.url.replace('smtp://', 'smtp://chime:hunter2@') }))).smtp!;
      expect(refused).toMatchObject({ status: 'fail', detail: expect.stringContaining("The SMTP server refused Chime's login") });
      expect(refused.fix).toContain('Check the user name and password in SMTP_URL');
    } finally {
      smtp.refuseLogins = false;
    }
  });

  it('browser push: https pages only, and a contact that reaches someone', () => {
    expect(checkWebPush(settings({ PUBLIC_URL: 'http://chime.example.org' }))).toMatchObject({ status: 'warn', detail: expect.stringContaining('only on https pages: at http://chime.example.org') });
    // This machine's own address is a secure page for a browser, but the default contact reaches nobody.
    expect(checkWebPush(settings({}))).toMatchObject({ status: 'warn', detail: expect.stringContaining('mailto:webpush@chime.invalid'), fix: expect.stringContaining('VAPID_SUBJECT') });
    expect(checkWebPush(settings({ VAPID_SUBJECT: 'mailto:admin@example.org' }))).toMatchObject({ status: 'ok', detail: expect.stringContaining('mailto:admin@example.org') });
    expect(checkWebPush(settings({ PUBLIC_URL: 'https://chime.example.org' }))).toMatchObject({ status: 'ok', detail: expect.stringContaining('https://chime.example.org') });
  });

  it('a PUBLIC_URL that does not reach Chime', async () => {
    const checks = byName(await runDoctor(settings({ PUBLIC_URL: await refusedUrl() })));
    expect(checks['public url']).toMatchObject({ status: 'fail', detail: expect.stringContaining('cannot be reached from this machine (ECONNREFUSED)') });
  });
});
