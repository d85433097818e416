/**
 * CHIME_ROLES: a process serves the API and the dashboard (web), delivers (scheduler), holds the
 * Discord gateway (bot), or any mix. Two processes' worth of apps share one database here (a
 * SQLite file, or a PostgreSQL database under the postgres project): the web-only one takes the
 * reminder, the scheduler-only one delivers it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseRoles } from '../../../server/config.ts';
import { client, signUp, startTestServer, type TestServer } from '../../helpers/server.ts';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.ts';

describe('CHIME_ROLES parsing', () => {
  const parse = (value: string | undefined) => {
    const problems: string[] = [];
    return { roles: parseRoles(value, problems), problems };
  };

  it('defaults to all three roles', () => {
    expect(parse(undefined)).toEqual({ roles: ['web', 'scheduler', 'bot'], problems: [] });
    expect(parse('  ')).toEqual({ roles: ['web', 'scheduler', 'bot'], problems: [] });
    expect(loadConfig({}).roles).toEqual(['web', 'scheduler', 'bot']);
  });

  it('takes any subset, in any order, case and spaces aside', () => {
    expect(parse('web')).toEqual({ roles: ['web'], problems: [] });
    expect(parse(' Scheduler , web,')).toEqual({ roles: ['web', 'scheduler'], problems: [] });
    expect(parse('bot,bot')).toEqual({ roles: ['bot'], problems: [] });
  });

  it('refuses unknown roles at start, naming them', () => {
    expect(() => loadConfig({ CHIME_ROLES: 'web,webb,sheduler' })).toThrow(ConfigError);
    try {
      loadConfig({ CHIME_ROLES: 'web,webb,sheduler' });
    } catch (err) {
      expect((err as Error).message).toContain('CHIME_ROLES: unknown roles "webb", "sheduler"; use web, scheduler and/or bot');
    }
    expect(parse(',').problems).toEqual(['CHIME_ROLES names no role; use web, scheduler and/or bot, or leave it unset for all three']);
  });

  it('refuses an unknown scheduler mode', () => {
    expect(loadConfig({}).schedulerMode).toBe('worker');
    expect(loadConfig({ CHIME_SCHEDULER_MODE: 'inline' }).schedulerMode).toBe('inline');
    expect(() => loadConfig({ CHIME_SCHEDULER_MODE: 'threads' })).toThrow(/CHIME_SCHEDULER_MODE must be worker or inline \(got "threads"\)/);
  });

  it('takes DELIVERY_THREADS from 1 to 8, 2 by default on 2 or more cores', () => {
    expect(loadConfig({}).deliveryThreads).toBe(Math.min(2, availableParallelism()));
    expect(loadConfig({ DELIVERY_THREADS: '1' }).deliveryThreads).toBe(1);
    expect(loadConfig({ DELIVERY_THREADS: '4' }).deliveryThreads).toBe(4);
    expect(() => loadConfig({ DELIVERY_THREADS: '0' })).toThrow(/DELIVERY_THREADS must be a whole number from 1 to 8 \(got "0"\)/);
    expect(() => loadConfig({ DELIVERY_THREADS: 'two' })).toThrow(/DELIVERY_THREADS must be a whole number from 1 to 8/);
  });
});

describe('a web-only and a scheduler-only process on one database', () => {
  let dir: string;
  let web: TestServer;
  let scheduler: TestServer;
  let sink: WebhookSink;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'chime-roles-'));
    sink = await startWebhookSink();
    // Discord settings are present but neither process holds the bot role: no gateway login.
    const discordEnv = { DISCORD_TOKEN: 'token', DISCORD_CLIENT_ID: '123456789012', DISCORD_CLIENT_SECRET: 'secret', DISCORD_API_URL: 'http://127.0.0.1:9/api/v10' };
    web = await startTestServer({ dir, env: { ...discordEnv, CHIME_ROLES: 'web' } });
    scheduler = await startTestServer({ dir, env: { ...discordEnv, CHIME_ROLES: 'scheduler' }, overrides: { schedulerMode: 'worker' } });
    await scheduler.app.scheduler.worker!.ready();
  });
  afterAll(async () => {
    await web?.close();
    await scheduler?.close();
    await sink?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the loop only where the scheduler role is', () => {
    expect(web.app.scheduler.mode).toBe('off');
    expect(scheduler.app.scheduler.mode).toBe('worker');
  });

  it('logs the bot in nowhere without the bot role', () => {
    expect(web.app.discord).not.toBeNull();
    expect(web.app.bot).toBeNull();
    expect(scheduler.app.bot).toBeNull();
    expect(scheduler.app.gatewayLeadership).toBeNull();
  });

  it('serves the API only where the web role is; /healthz and /metrics everywhere', async () => {
    const onScheduler = client(scheduler.url);
    expect((await onScheduler.get('/api/config')).status).toBe(404);
    expect((await onScheduler.post('/api/auth/register', { email: 'a@example.com', username: 'a', password: 'correct horse battery', timezone: 'UTC' })).status).toBe(404);
    expect((await onScheduler.get('/api/discord/guilds')).status).toBe(404);
    expect((await onScheduler.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await onScheduler.get('/metrics')).status).toBe(200);
    expect((await client(web.url).get('/api/config')).status).toBe(200);
    expect((await client(web.url).get('/metrics')).status).toBe(200);
  });

  it('delivers from the scheduler-only process what the web-only one created', async () => {
    const user = await signUp(web.url);
    const at = new Date(Date.now() + 1500).toISOString();
    const res = await user.api.post('/api/reminders', {
      date: at.slice(0, 10),
      time: at.slice(11, 19),
      timezone: 'UTC',
      message: 'created on the web node',
      destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/hook`, platform: 'generic' } }],
    });
    expect(res.status).toBe(201);
    // No wake crosses processes: the scheduler sees the web node's write in the database.
    const [request] = await sink.waitFor(1, 15_000);
    expect(request!.body).toContain('created on the web node');
    await scheduler.app.scheduler.drain();
    const history = await user.api.get(`/api/reminders/${res.body.id}`);
    expect(history.status).toBe(200);
    const delivered = await web.app.db.selectFrom('deliveries').select(['status', 'reminder_id']).execute();
    expect(delivered).toEqual([{ status: 'delivered', reminder_id: res.body.id }]);
  });
});
