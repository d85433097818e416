import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

type User = Awaited<ReturnType<typeof signUp>>;

describe('account API', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const login = (email: string, password: string) => client(server.url).post('/api/auth/login', { email, password });

  describe('GET /api/account', () => {
    it('answers the account with its identities', async () => {
      const user = await signUp(server.url, { timezone: 'America/New_York' });
      const res = await user.api.get('/api/account');
      expect(res.status).toBe(200);
      // The registration's fields, and the language of the account's mails (none given at this sign-up: null).
      expect(Object.keys(res.body).sort()).toEqual(['created_at', 'email', 'id', 'identities', 'language', 'timezone', 'user_id', 'username']);
      expect(res.body.language).toBeNull();
      expect(res.body).toMatchObject({
        id: user.id,
        user_id: user.id,
        email: user.email,
        username: user.username,
        timezone: 'America/New_York',
      });
      expect(Number.isNaN(Date.parse(res.body.created_at))).toBe(false);
      expect(res.body.identities).toEqual([{ provider: 'app', username: user.username, external_id: user.email.toLowerCase() }]);
      expect(JSON.stringify(res.body)).not.toMatch(/password|argon2/i);
    });

    it('lists a Discord identity next to the app identity, without its tokens', async () => {
      const user = await signUp(server.url);
      await insertDiscordIdentity(server, user.id, '123456789012345678', 'discordian');
      const res = await user.api.get('/api/account');
      expect(res.body.identities).toEqual([
        { provider: 'app', username: user.username, external_id: user.email.toLowerCase() },
        { provider: 'discord', username: 'discordian', external_id: '123456789012345678' },
      ]);
      expect(JSON.stringify(res.body)).not.toContain('access-token-value');
    });
  });

  describe('GET /api/account/capabilities', () => {
    it('reports the identities the account has and whether Discord is configured', async () => {
      const user = await signUp(server.url);
      const before = await user.api.get('/api/account/capabilities');
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ hasDiscordIdentity: false, hasAppIdentity: true, discordConfigured: false });
      await insertDiscordIdentity(server, user.id, '223456789012345678', 'linked');
      const after = await user.api.get('/api/account/capabilities');
      expect(after.body).toEqual({ hasDiscordIdentity: true, hasAppIdentity: true, discordConfigured: false });
    });
  });

  describe('PUT /api/account/timezone', () => {
    let user: User;
    beforeAll(async () => {
      user = await signUp(server.url);
    });

    it('accepts a zone name and answers the updated account', async () => {
      const res = await user.api.put('/api/account/timezone', { timezone: 'Europe/Paris' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.id, timezone: 'Europe/Paris' });
      expect(res.body.identities).toHaveLength(1);
      expect((await user.api.get('/api/account')).body.timezone).toBe('Europe/Paris');
    });

    it('accepts the object form, using iana_location then name', async () => {
      const byLocation = await user.api.put('/api/account/timezone', { timezone: { iana_location: 'Asia/Tokyo', name: 'Tokyo Standard Time' } });
      expect(byLocation.status).toBe(200);
      expect(byLocation.body.timezone).toBe('Asia/Tokyo');
      const byName = await user.api.put('/api/account/timezone', { timezone: { name: 'America/Chicago' } });
      expect(byName.status).toBe(200);
      expect(byName.body.timezone).toBe('America/Chicago');
    });

    it('stores the canonical spelling of a zone', async () => {
      const res = await user.api.put('/api/account/timezone', { timezone: '  europe/london ' });
      expect(res.status).toBe(200);
      expect(res.body.timezone).toBe('Europe/London');
    });

    it('refuses an invalid zone with 400 and changes nothing', async () => {
      await user.api.put('/api/account/timezone', { timezone: 'Europe/Berlin' });
      for (const timezone of ['Nowhere/Atlantis', '', '+02:00', { iana_location: 'Moon/Base' }, {}]) {
        const res = await user.api.put('/api/account/timezone', { timezone });
        expect(res.status, JSON.stringify(timezone)).toBe(400);
        expect(res.body.code).toBe('INVALID_TIMEZONE');
      }
      for (const body of [{}, { timezone: 42 }, { timezone: null }, { timezone: ['UTC'] }]) {
        const res = await user.api.put('/api/account/timezone', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toEqual({ error: expect.any(String), code: expect.any(String) });
      }
      expect((await user.api.get('/api/account')).body.timezone).toBe('Europe/Berlin');
    });
  });

  describe('PUT /api/account/identity/app/username', () => {
    it('renames the account and its app identity', async () => {
      const user = await signUp(server.url);
      const res = await user.api.put('/api/account/identity/app/username', { username: '  New Name  ' });
      expect(res.status).toBe(200);
      expect(res.body.username).toBe('New Name');
      expect(res.body.identities[0]).toMatchObject({ provider: 'app', username: 'New Name' });
      const relogin = await login(user.email, user.password);
      expect(relogin.body.username).toBe('New Name');
    });

    it('refuses a blank username with "Username is required"', async () => {
      const user = await signUp(server.url);
      for (const username of ['', '   ', '\t\n']) {
        const res = await user.api.put('/api/account/identity/app/username', { username });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Username is required', code: 'USERNAME_REQUIRED' });
      }
      const missing = await user.api.put('/api/account/identity/app/username', {});
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('VALIDATION_FAILED');
      expect((await user.api.get('/api/account')).body.username).toBe(user.username);
    });

    it('refuses an over-long username', async () => {
      const user = await signUp(server.url);
      const res = await user.api.put('/api/account/identity/app/username', { username: 'x'.repeat(65) });
      expect(res.status).toBe(400);
      expect((await user.api.get('/api/account')).body.username).toBe(user.username);
    });
  });

  describe('PUT /api/account/identity/app/email', () => {
    it('changes the email; login then works with the new one only', async () => {
      const user = await signUp(server.url);
      const newEmail = `changed-${randomUUID()}@Example.com`;
      const res = await user.api.put('/api/account/identity/app/email', { email: newEmail });
      expect(res.status).toBe(200);
      expect(res.body.email).toBe(newEmail);
      expect(res.body.identities[0]).toMatchObject({ provider: 'app', external_id: newEmail.toLowerCase() });
      expect((await login(newEmail, user.password)).status).toBe(200);
      expect((await login(newEmail.toLowerCase(), user.password)).status).toBe(200);
      expect((await login(user.email, user.password)).status).toBe(401);
    });

    it('refuses a blank or malformed email with the documented texts', async () => {
      const user = await signUp(server.url);
      const blank = await user.api.put('/api/account/identity/app/email', { email: '  ' });
      expect(blank.status).toBe(400);
      expect(blank.body).toEqual({ error: 'Email is required', code: 'EMAIL_INVALID' });
      for (const email of ['nope', 'no@domain', 'a b@example.com']) {
        const res = await user.api.put('/api/account/identity/app/email', { email });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Please enter a valid email address', code: 'EMAIL_INVALID' });
      }
      expect((await user.api.get('/api/account')).body.email).toBe(user.email);
    });

    it("refuses another account's email, in any case, with 409 EMAIL_TAKEN", async () => {
      const a = await signUp(server.url);
      const b = await signUp(server.url);
      for (const email of [b.email, b.email.toUpperCase()]) {
        const res = await a.api.put('/api/account/identity/app/email', { email });
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('EMAIL_TAKEN');
      }
      expect((await a.api.get('/api/account')).body.email).toBe(a.email);
      expect((await login(b.email, b.password)).body.id).toBe(b.id);
    });

    it('accepts its own email again (a no-op or a change of case)', async () => {
      const user = await signUp(server.url);
      const res = await user.api.put('/api/account/identity/app/email', { email: user.email.toUpperCase() });
      expect(res.status).toBe(200);
      expect(res.body.email).toBe(user.email.toUpperCase());
      expect((await login(user.email, user.password)).status).toBe(200);
    });
  });

  describe('POST /api/account/identity/app/change-password', () => {
    const path = '/api/account/identity/app/change-password';

    it('refuses each invalid input with the documented text and keeps the old password', async () => {
      const user = await signUp(server.url);
      const cases: Array<[Record<string, unknown>, number, string, string]> = [
        [{ current_password: '', new_password: 'brand-new-password' }, 400, 'CURRENT_PASSWORD_REQUIRED', 'Current password is required'],
        [{ current_password: user.password, new_password: '' }, 400, 'PASSWORD_REQUIRED', 'New password is required'],
        [{ current_password: user.password, new_password: 'short' }, 400, 'PASSWORD_TOO_SHORT', 'Password must be at least 8 characters'],
        [{ current_password: user.password, new_password: user.password }, 400, 'PASSWORD_UNCHANGED', 'New password must be different from current password'],
        [{ current_password: 'not-my-password', new_password: 'brand-new-password' }, 400, 'WRONG_PASSWORD', 'Current password is incorrect'],
      ];
      for (const [body, status, code, error] of cases) {
        const res = await user.api.post(path, body);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(res.body).toEqual({ error, code });
      }
      for (const body of [{}, { current_password: user.password }, { new_password: 'brand-new-password' }, { current_password: 1, new_password: 'brand-new-password' }]) {
        const res = await user.api.post(path, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
      expect((await login(user.email, user.password)).status).toBe(200);
      expect((await login(user.email, 'brand-new-password')).status).toBe(401);
    });

    it('changes the password, keeps the current session and revokes the others', async () => {
      const user = await signUp(server.url);
      const other = await login(user.email, user.password);
      const otherApi = client(server.url, other.body.token);
      expect((await otherApi.get('/api/account')).status).toBe(200);

      const res = await user.api.post(path, { current_password: user.password, new_password: 'a-brand-new-password' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });

      expect((await user.api.get('/api/account')).status).toBe(200);
      expect((await otherApi.get('/api/account')).status).toBe(401);
      expect((await login(user.email, user.password)).status).toBe(401);
      expect((await login(user.email, 'a-brand-new-password')).status).toBe(200);

      const identity = await server.app.db.selectFrom('identities').select('password_hash').where('account_id', '=', user.id).where('provider', '=', 'app').executeTakeFirstOrThrow();
      expect(identity.password_hash).toMatch(/^\$argon2id\$/);
    });

    it('throttles wrong current passwords like sign-in: held after 5, even with the right one, with a clear 429', async () => {
      const user = await signUp(server.url);
      for (let i = 0; i < 5; i += 1) {
        const res = await user.api.post(path, { current_password: `wrong-${i}-password`, new_password: 'a-brand-new-password' });
        expect(res.status, `attempt ${i + 1}`).toBe(400);
        expect(res.body.code).toBe('WRONG_PASSWORD');
      }
      const held = await user.api.post(path, { current_password: user.password, new_password: 'a-brand-new-password' });
      expect(held.status).toBe(429);
      expect(held.body).toEqual({ error: expect.stringMatching(/^Too many wrong passwords\. Try again in \d+ (minute|second)s?\.$/), code: 'RATE_LIMITED', retry_after_seconds: expect.any(Number) });
      expect(Number(held.headers.get('retry-after'))).toBe(held.body.retry_after_seconds);
      expect(held.body.retry_after_seconds).toBeGreaterThan(60);
      // Nothing changed, sign-in is a separate counter, and another account is not affected.
      expect((await login(user.email, user.password)).status).toBe(200);
      const other = await signUp(server.url);
      expect((await other.api.post(path, { current_password: other.password, new_password: 'another-new-password' })).status).toBe(200);
    });

    it('parallel wrong current passwords do not slip past the counter', async () => {
      const user = await signUp(server.url);
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => user.api.post(path, { current_password: `parallel-${i}-password`, new_password: 'a-brand-new-password' })));
      const checked = results.filter((r) => r.status === 400).length;
      expect(checked).toBeGreaterThan(0);
      expect(checked).toBeLessThanOrEqual(5);
      expect(results.filter((r) => r.status === 429)).toHaveLength(12 - checked);
    });

    it('answers 409 NO_APP_IDENTITY for an account without a password', async () => {
      const user = await signUp(server.url);
      await server.app.db.updateTable('identities').set({ password_hash: null }).where('account_id', '=', user.id).execute();
      const res = await user.api.post(path, { current_password: 'anything-at-all', new_password: 'a-brand-new-password' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('NO_APP_IDENTITY');
    });
  });

  describe('DELETE /api/account', () => {
    it('removes the account and every row that belongs to it, and only those', async () => {
      const victim = await signUp(server.url);
      const bystander = await signUp(server.url);
      const victimReminder = await createReminderWithWebhook(victim);
      const bystanderReminder = await createReminderWithWebhook(bystander);
      await insertDelivery(server, victim.id, victimReminder);
      await insertDelivery(server, bystander.id, bystanderReminder);
      // A second session of the victim.
      const second = await login(victim.email, victim.password);

      const counts = async (accountId: string, reminderId: string) => {
        const db = server.app.db;
        const count = async (q: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) => Number((await q.executeTakeFirstOrThrow()).n);
        return {
          accounts: await count(db.selectFrom('accounts').select((eb) => eb.fn.countAll().as('n')).where('id', '=', accountId)),
          identities: await count(db.selectFrom('identities').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId)),
          sessions: await count(db.selectFrom('sessions').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId)),
          reminders: await count(db.selectFrom('reminders').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId)),
          destinations: await count(db.selectFrom('destinations').select((eb) => eb.fn.countAll().as('n')).where('reminder_id', '=', reminderId)),
          deliveries: await count(db.selectFrom('deliveries').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId)),
          delivery_attempts: await count(db.selectFrom('delivery_attempts').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId)),
        };
      };
      expect(await counts(victim.id, victimReminder.id)).toEqual({ accounts: 1, identities: 1, sessions: 2, reminders: 1, destinations: 1, deliveries: 1, delivery_attempts: 2 });
      const bystanderBefore = await counts(bystander.id, bystanderReminder.id);

      const res = await victim.api.delete('/api/account');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });

      expect(await counts(victim.id, victimReminder.id)).toEqual({ accounts: 0, identities: 0, sessions: 0, reminders: 0, destinations: 0, deliveries: 0, delivery_attempts: 0 });
      expect(await counts(bystander.id, bystanderReminder.id)).toEqual(bystanderBefore);

      expect((await victim.api.get('/api/account')).status).toBe(401);
      expect((await client(server.url, second.body.token).get('/api/reminders')).status).toBe(401);
      expect((await login(victim.email, victim.password)).status).toBe(401);
      expect((await bystander.api.get(`/api/reminders/${bystanderReminder.id}`)).status).toBe(200);
      // The email is free again.
      const again = await client(server.url).post('/api/auth/register', { email: victim.email, username: 'Again', password: 'longenough1', timezone: 'UTC' });
      expect(again.status).toBe(201);
    });

    it('needs a session', async () => {
      const res = await client(server.url).delete('/api/account');
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('NOT_AUTHENTICATED');
    });
  });
});

async function insertDiscordIdentity(server: TestServer, accountId: string, discordId: string, username: string) {
  const now = new Date().toISOString();
  await server.app.db
    .insertInto('identities')
    .values({
      id: randomUUID(),
      account_id: accountId,
      provider: 'discord',
      external_id: discordId,
      username,
      password_hash: null,
      access_token: 'access-token-value',
      refresh_token: 'refresh-token-value',
      token_expires_at: null,
      scope: 'identify',
      dm_channel_id: null,
      created_at: new Date(Date.now() + 1000).toISOString(),
      updated_at: now,
    })
    .execute();
}

async function createReminderWithWebhook(user: User): Promise<{ id: string; destinationId: string }> {
  const res = await user.api.post('/api/reminders', {
    date: '2030-06-01',
    time: '09:00',
    message: `reminder of ${user.username}`,
    recurrence: 'DAILY',
    destinations: [{ type: 'webhook', metadata: { url: 'https://hooks.example.com/x', platform: 'generic' } }],
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, destinationId: res.body.destinations[0].id };
}

async function insertDelivery(server: TestServer, accountId: string, reminder: { id: string; destinationId: string }) {
  const now = new Date().toISOString();
  const deliveryId = randomUUID();
  await server.app.db
    .insertInto('deliveries')
    .values({
      id: deliveryId,
      reminder_id: reminder.id,
      destination_id: reminder.destinationId,
      account_id: accountId,
      occurrence_utc: '2030-06-01T09:00:00.000Z',
      idempotency_key: randomUUID(),
      status: 'failed',
      attempts: 2,
      next_attempt_at: null,
      late: 0,
      last_error: 'HTTP 500',
      created_at: now,
      updated_at: now,
      delivered_at: null,
    })
    .execute();
  for (const attempt of [1, 2]) {
    await server.app.db
      .insertInto('delivery_attempts')
      .values({
        delivery_id: deliveryId,
        reminder_id: reminder.id,
        destination_id: reminder.destinationId,
        account_id: accountId,
        occurrence_utc: '2030-06-01T09:00:00.000Z',
        attempt,
        outcome: attempt === 2 ? 'failed' : 'retrying',
        error: 'HTTP 500',
        http_status: 500,
        discord_code: null,
        duration_ms: 12,
        created_at: now,
      })
      .execute();
  }
}

describe('change-password throttle across networks', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a stolen session guessing from one network does not stop the owner changing the password from another', async () => {
    const path = '/api/account/identity/app/change-password';
    const user = await signUp(server.url);
    const thief = { 'x-forwarded-for': '203.0.113.50' };
    for (let i = 0; i < 20; i += 1) await user.api.post(path, { current_password: `guess-${i}-password`, new_password: 'thief-new-password' }, thief);
    expect((await user.api.post(path, { current_password: user.password, new_password: 'thief-new-password' }, thief)).status).toBe(429);
    const owner = await user.api.post(path, { current_password: user.password, new_password: 'owner-new-password' }, { 'x-forwarded-for': '198.51.100.50' });
    expect(owner.status).toBe(200);
    expect((await client(server.url).post('/api/auth/login', { email: user.email, password: 'owner-new-password' })).status).toBe(200);
  });
});
