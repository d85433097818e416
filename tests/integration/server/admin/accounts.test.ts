/**
 * docs/operations.md "Administration": `npm run admin -- accounts …` and `stats`. A disabled account cannot
 * sign in (password, existing sessions), its reminders do not fire, and enabling it again brings
 * both back with nothing lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsCommand } from '../../../../server/admin/accounts.ts';
import { AdminFailure } from '../../../../server/admin/result.ts';
import { statsCommand } from '../../../../server/admin/stats.ts';
import { countDueReminders, nextReminderFire } from '../../../../server/repositories/due-reminders.ts';
import { runAdmin } from '../../../helpers/chime-process.ts';
import { startTestServer, type TestServer } from '../../../helpers/server.ts';
import { seedAccount, seedReminder, startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';

let server: TestServer;
let sink: WebhookSink;

beforeAll(async () => {
  sink = await startWebhookSink();
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const accountStatus = async (token: string) => (await fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${token}` } })).status;

async function register(email: string) {
  expect((await post('/api/auth/register', { email, username: email.split('@')[0], password: 'longenough1', timezone: 'UTC' })).status).toBe(201);
  const login = await post('/api/auth/login', { email, password: 'longenough1', remember_me: false });
  expect(login.status).toBe(200);
  return { id: String(login.body.id), token: String(login.body.token) };
}

const deliveriesOf = (reminderId: string) => server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', reminderId).execute();

describe('disabling an account', () => {
  it('ends its sessions, refuses its sign-in, holds its reminders; enabling restores all', async () => {
    const db = server.app.db;
    const { id, token } = await register('mallory@example.com');
    const disabled = await accountsCommand(db, ['disable', 'MALLORY@example.com'], {});
    expect(disabled.exitCode).toBe(0);
    // Due, but written once the account is disabled: the running loop's safety net cannot send it first.
    const due = Date.now() - 1000;
    const { id: reminderId } = await seedReminder(db, { accountId: id, at: due, message: 'held while disabled', destinations: [{ url: `${sink.url}/held` }] });
    const before = await db.selectFrom('reminders').selectAll().where('id', '=', reminderId).executeTakeFirstOrThrow();

    expect(await accountStatus(token)).toBe(401);
    expect(await post('/api/auth/login', { email: 'mallory@example.com', password: 'longenough1', remember_me: false })).toMatchObject({
      status: 403,
      body: { code: 'ACCOUNT_DISABLED' },
    });

    // Not due for the claim, nor for the timer (which would otherwise re-arm for it at once), nor for stats.
    await server.app.scheduler.runOnce();
    expect(await deliveriesOf(reminderId)).toHaveLength(0);
    expect(await countDueReminders(db, new Date().toISOString())).toBe(0);
    expect(await nextReminderFire(db)).toBeNull();
    expect((await statsCommand(db)).data).toMatchObject({ accounts: 1, disabledAccounts: 1, dueNow: 0, remindersActive: 1 });

    expect((await accountsCommand(db, ['enable', id], {})).exitCode).toBe(0);
    const after = await db.selectFrom('reminders').selectAll().where('id', '=', reminderId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect((await post('/api/auth/login', { email: 'mallory@example.com', password: 'longenough1', remember_me: false })).status).toBe(200);
    await server.app.scheduler.runOnce();
    await server.app.scheduler.drain();
    expect(sink.requests.filter((r) => r.json?.reminder_id === reminderId)).toHaveLength(1);
  });

  it('another account keeps firing while one is disabled', async () => {
    const db = server.app.db;
    const other = await seedAccount(db);
    const disabledOne = await seedAccount(db);
    const { id: live } = await seedReminder(db, { accountId: other, at: Date.now() - 1000, destinations: [{ url: `${sink.url}/live` }] });
    const { id: held } = await seedReminder(db, { accountId: disabledOne, at: Date.now() - 2000, destinations: [{ url: `${sink.url}/held2` }] });
    await accountsCommand(db, ['disable', disabledOne], {});
    await server.app.scheduler.runOnce();
    await server.app.scheduler.drain();
    expect(await deliveriesOf(live)).toHaveLength(1);
    expect(await deliveriesOf(held)).toHaveLength(0);
  });
});

describe('accounts subcommands', () => {
  it('list, show, and delete only with --yes', async () => {
    const db = server.app.db;
    const { id } = await register('trudy@example.com');
    await seedReminder(db, { accountId: id, at: Date.now() + 86_400_000 });

    const list = await accountsCommand(db, ['list'], {});
    expect(list.text).toMatch(/^ID\s+USERNAME\s+EMAIL\s+SIGN-IN\s+REMINDERS\s+STATUS\s+CREATED$/m);
    expect(list.data).toMatchObject({ accounts: expect.arrayContaining([expect.objectContaining({ id, email: 'trudy@example.com', reminders: 1, providers: 'app', disabled_at: null })]) });

    expect((await accountsCommand(db, ['show', 'trudy'], {})).text).toMatch(/email:\s+trudy@example.com[\s\S]*status:\s+enabled[\s\S]*reminders:\s+1/);
    await expect(accountsCommand(db, ['show', 'nobody@example.com'], {})).rejects.toMatchObject({ exitCode: 1, code: 'ACCOUNT_NOT_FOUND' });
    await expect(accountsCommand(db, ['frobnicate'], {})).rejects.toBeInstanceOf(AdminFailure);

    await expect(accountsCommand(db, ['delete', id], {})).rejects.toMatchObject({ exitCode: 2, code: 'CONFIRMATION_REQUIRED' });
    expect(await db.selectFrom('accounts').select('id').where('id', '=', id).executeTakeFirst()).toBeDefined();
    expect((await accountsCommand(db, ['delete', id], { yes: true })).exitCode).toBe(0);
    expect(await db.selectFrom('accounts').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('reminders').select('id').where('account_id', '=', id).execute()).toEqual([]);
  });

  it('the command line: same settings as the server, --json, exit codes 0, 1 and 2', { timeout: 240_000 }, async () => {
    const { id } = await register('victor@example.com');
    const env = { DATABASE_URL: server.config.databaseUrl };
    const [shown, missing, usage] = await Promise.all([
      runAdmin(server.dir, env, ['--json', 'accounts', 'show', 'victor@example.com']),
      runAdmin(server.dir, env, ['accounts', 'show', 'nobody@example.com']),
      runAdmin(server.dir, env, ['accounts']),
    ]);
    const [disabled, stats] = await Promise.all([runAdmin(server.dir, env, ['accounts', 'disable', id]), runAdmin(server.dir, env, ['stats', '--json'])]);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ account: { id, email: 'victor@example.com', disabled_at: null } });
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining('No account has the id, email or username "nobody@example.com"') });
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: npm run admin -- accounts list') });
    expect(disabled).toMatchObject({ code: 0, stdout: expect.stringContaining('Disabled victor') });
    expect((await post('/api/auth/login', { email: 'victor@example.com', password: 'longenough1', remember_me: false })).status).toBe(403);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ accounts: expect.any(Number), queueDepth: expect.any(Number), oldestDue: null });
  });
});
