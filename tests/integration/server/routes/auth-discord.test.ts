import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, nowIso } from '../../../../server/lib/ids.ts';
import { type FakeDiscord, startFakeDiscord } from '../../../helpers/fake-discord/index.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

const PUBLIC_URL = 'http://localhost:5173';
const REDIRECT_URI = `${PUBLIC_URL}/auth/callback/discord`;
const SCOPES = ['identify', 'email', 'guilds', 'guilds.members.read'];
const DAY = 24 * 60 * 60 * 1000;

let fake: FakeDiscord;
let server: TestServer;
let userSeq = 0;

/** A Discord user of the fake, with a fresh snowflake-looking id. */
function discordUser(name: string, email: string | null = `${name}@discord.example`) {
  userSeq += 1;
  const id = `7${String(Date.now()).slice(-9)}${String(userSeq).padStart(8, '0')}`;
  fake.addUser({ id, username: name, email, global_name: name.toUpperCase() });
  return id;
}

/** A browser: keeps cookies per name, like a cookie jar for one site. */
class Browser {
  cookies = new Map<string, string>();
  constructor(private readonly bearer?: string) {}

  async call(method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { origin: server.url };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const idx = pair!.indexOf('=');
      const name = pair!.slice(0, idx).trim();
      const value = pair!.slice(idx + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, setCookies };
  }

  /** Gets an authorize URL from Chime, "clicks Authorize" at the fake as `discordId`, returns code and state. */
  async authorize(discordId: string, mode: 'login' | 'link' = 'login') {
    const res = await this.call('GET', `/api/auth/discord/authorize-url?mode=${mode}`);
    expect(res.status).toBe(200);
    fake.setAuthorizingUser(discordId);
    const redirect = await fetch(res.body.url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const target = new URL(redirect.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe(REDIRECT_URI);
    return { code: target.searchParams.get('code')!, state: target.searchParams.get('state')! };
  }

  async signInWithDiscord(discordId: string, mode: 'login' | 'link' = 'login') {
    const { code, state } = await this.authorize(discordId, mode);
    return this.call('POST', '/api/auth/discord/callback', { code, state });
  }
}

async function discordIdentityRow(discordId: string) {
  return server.app.db.selectFrom('identities').selectAll().where('provider', '=', 'discord').where('external_id', '=', discordId).executeTakeFirst();
}

/** Completes a first-time Discord sign-in with a password. */
async function completeSetup(browser: Browser, accountId: string, email: string) {
  return browser.call('POST', '/api/auth/discord/setup', { account_id: accountId, email, username: 'Alice Setup', password: 'correct horse battery', timezone: 'Europe/Paris' });
}

beforeAll(async () => {
  fake = await startFakeDiscord({ redirectUris: [REDIRECT_URI] });
  server = await startTestServer({
    env: {
      DISCORD_TOKEN: fake.botToken,
      DISCORD_CLIENT_ID: fake.clientId,
      DISCORD_CLIENT_SECRET: fake.clientSecret,
      DISCORD_API_URL: fake.apiUrl,
      PUBLIC_URL,
    },
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('GET /api/auth/discord/authorize-url', () => {
  it('builds the authorize URL with client id, redirect URI, code flow, the four scopes and a state bound to an HttpOnly cookie', async () => {
    const browser = new Browser();
    const res = await browser.call('GET', '/api/auth/discord/authorize-url?mode=login');
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/oauth2/authorize`);
    expect(url.searchParams.get('client_id')).toBe(fake.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')!.split(' ').sort()).toEqual([...SCOPES].sort());
    const state = url.searchParams.get('state')!;
    expect(state.length).toBeGreaterThanOrEqual(32);
    const cookie = res.setCookies.find((c) => c.startsWith('chime_oauth_state='))!;
    expect(cookie).toContain(`chime_oauth_state=${state}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=600/i);
    // Each request gets a new state.
    const again = await new Browser().call('GET', '/api/auth/discord/authorize-url');
    expect(new URL(again.body.url).searchParams.get('state')).not.toBe(state);
  });

  it('link mode needs a signed-in user; unknown modes are refused', async () => {
    const anon = await new Browser().call('GET', '/api/auth/discord/authorize-url?mode=link');
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('NOT_AUTHENTICATED');
    const bad = await new Browser().call('GET', '/api/auth/discord/authorize-url?mode=admin');
    expect(bad.status).toBe(400);
  });
});

describe('POST /api/auth/discord/callback', () => {
  it('refuses a state that does not match the cookie, a missing cookie and a reused state', async () => {
    const id = discordUser('mallory');
    const browser = new Browser();
    const { code, state } = await browser.authorize(id);

    const wrong = await browser.call('POST', '/api/auth/discord/callback', { code, state: `${state}x` });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      code: 'DISCORD_OAUTH_STATE_MISMATCH',
      error: 'The sign-in link expired or was opened in another browser. Please try again.',
    });

    // Another browser (no cookie) presenting the right state.
    const other = await new Browser().call('POST', '/api/auth/discord/callback', { code, state });
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('DISCORD_OAUTH_STATE_MISMATCH');

    // The first failure cleared the cookie and burned the state: the same pair cannot be replayed.
    browser.cookies.set('chime_oauth_state', state);
    const replay = await browser.call('POST', '/api/auth/discord/callback', { code, state });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('DISCORD_OAUTH_STATE_MISMATCH');
  });

  it('reports a code Discord does not accept, and a missing code', async () => {
    const browser = new Browser();
    const res1 = await browser.call('GET', '/api/auth/discord/authorize-url');
    const state1 = new URL(res1.body.url).searchParams.get('state')!;
    const bad = await browser.call('POST', '/api/auth/discord/callback', { code: 'not-a-real-code', state: state1 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('DISCORD_OAUTH_FAILED');

    const res2 = await browser.call('GET', '/api/auth/discord/authorize-url');
    const state2 = new URL(res2.body.url).searchParams.get('state')!;
    const missing = await browser.call('POST', '/api/auth/discord/callback', { state: state2 });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('No authorization code received from Discord');
  });
});

describe('first-time Discord sign-in and profile completion', () => {
  let discordId: string;
  let accountId: string;
  let browser: Browser;
  let setupToken: string;
  const email = `alice-${Date.now()}@example.com`;

  it('creates a Discord-only account and answers setup_required without a session', async () => {
    discordId = discordUser('alice', 'alice.discord@example.com');
    browser = new Browser();
    const res = await browser.signInWithDiscord(discordId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'setup_required',
      needs_setup: true,
      account_id: expect.any(String),
      discord_email: 'alice.discord@example.com',
      discord_username: 'alice',
    });
    accountId = res.body.account_id;
    expect(res.setCookies.some((c) => c.startsWith('chime_session='))).toBe(false);
    expect(browser.cookies.has('chime_setup')).toBe(true);
    expect(res.setCookies.find((c) => c.startsWith('chime_setup='))).toMatch(/HttpOnly/i);

    const account = await server.app.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(account).toMatchObject({ email: null, username: 'alice', timezone: 'UTC' });
    // Discord tokens are kept server-side only.
    const identity = await discordIdentityRow(discordId);
    expect(identity).toMatchObject({ account_id: accountId, username: 'alice' });
    expect(identity!.access_token).toBeTruthy();
    expect(identity!.refresh_token).toBeTruthy();
    expect(identity!.scope!.split(' ').sort()).toEqual([...SCOPES].sort());
    expect(JSON.stringify(res.body)).not.toContain(identity!.access_token!);
  });

  it('setup needs the setup ticket of that very account', async () => {
    const stranger = await new Browser().call('POST', '/api/auth/discord/setup', { account_id: accountId, email, username: 'x', password: 'correct horse battery', timezone: 'UTC' });
    expect(stranger.status).toBe(403);
    const otherAccount = await browser.call('POST', '/api/auth/discord/setup', { account_id: newId(), email, username: 'x', password: 'correct horse battery', timezone: 'UTC' });
    expect(otherAccount.status).toBe(403);
  });

  it('validates the profile-completion form with the dashboard\'s texts', async () => {
    const base = { account_id: accountId, email, username: 'Alice', password: 'correct horse battery', timezone: 'Europe/Paris' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: '' }, 'Email is required'],
      [{ email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ username: '   ' }, 'Username is required'],
      [{ password: '' }, 'Password is required'],
      [{ password: 'short' }, 'Password must be at least 8 characters'],
      [{ timezone: 'Mars/Olympus' }, '"Mars/Olympus" is not a valid IANA time zone (for example Europe/Paris)'],
    ];
    for (const [patch, message] of cases) {
      const res = await browser.call('POST', '/api/auth/discord/setup', { ...base, ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.error).toBe(message);
    }
    const fields = { ...base } as Record<string, unknown>;
    delete fields.username;
    const missing = await browser.call('POST', '/api/auth/discord/setup', fields);
    expect(missing.body.error).toBe('Username is required');
  });

  it('refuses an email another account already uses (409)', async () => {
    const other = await signUp(server.url);
    const res = await completeSetup(browser, accountId, other.email.toUpperCase());
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_TAKEN');
  });

  it('completes the profile: app identity, 30-day session, login response', async () => {
    const res = await completeSetup(browser, accountId, email);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: accountId, email, username: 'Alice Setup', token: expect.any(String), expires_at: expect.any(String), language: 'en' });
    const ttl = Date.parse(res.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(29 * DAY);
    expect(ttl).toBeLessThanOrEqual(30 * DAY);
    expect(res.setCookies.some((c) => c.startsWith('chime_session='))).toBe(true);
    setupToken = res.body.token;

    const me = await client(server.url, setupToken).get('/api/account');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: accountId, email, username: 'Alice Setup', timezone: 'Europe/Paris' });
    expect(me.body.identities.map((i: { provider: string }) => i.provider).sort()).toEqual(['app', 'discord']);
    expect(me.body.identities.find((i: { provider: string }) => i.provider === 'discord').external_id).toBe(discordId);

    // The ticket is single-use.
    const again = await completeSetup(browser, accountId, `again-${email}`);
    expect(again.status).toBe(403);
  });

  it('then signs in by either method into the same account', async () => {
    const byPassword = await client(server.url).post('/api/auth/login', { email, password: 'correct horse battery', remember_me: false });
    expect(byPassword.status).toBe(200);
    expect(byPassword.body.id).toBe(accountId);

    const byDiscord = await new Browser().signInWithDiscord(discordId);
    expect(byDiscord.status).toBe(200);
    expect(byDiscord.body).toEqual({ id: accountId, email, username: 'Alice Setup', token: expect.any(String), expires_at: expect.any(String), language: 'en' });
    expect(Date.parse(byDiscord.body.expires_at) - Date.now()).toBeGreaterThan(29 * DAY);
    expect(byDiscord.setCookies.find((c) => c.startsWith('chime_session='))).toMatch(/HttpOnly/i);
    const me = await client(server.url, byDiscord.body.token).get('/api/account');
    expect(me.body.id).toBe(accountId);
  });
});

describe('an account the bot created from a slash command', () => {
  async function insertBotCreatedAccount(discordId: string) {
    const id = newId();
    const now = nowIso();
    await server.app.db.insertInto('accounts').values({ id, email: null, email_normalized: null, username: 'from-bot', timezone: 'Asia/Tokyo', locale: null, created_at: now, updated_at: now }).execute();
    await server.app.db
      .insertInto('identities')
      .values({ id: newId(), account_id: id, provider: 'discord', external_id: discordId, username: 'from-bot', password_hash: null, access_token: null, refresh_token: null, token_expires_at: null, scope: null, dm_channel_id: null, created_at: now, updated_at: now })
      .execute();
    return id;
  }

  it('signing in on the dashboard lands in that account and asks to complete it', async () => {
    const discordId = discordUser('botfirst');
    const existing = await insertBotCreatedAccount(discordId);
    const browser = new Browser();
    const res = await browser.signInWithDiscord(discordId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'setup_required', account_id: existing });
    const count = await server.app.db.selectFrom('identities').select((eb) => eb.fn.countAll<number>().as('n')).where('external_id', '=', discordId).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    // Its tokens are stored now, so the dashboard can list the user's servers.
    expect((await discordIdentityRow(discordId))!.access_token).toBeTruthy();
    const done = await completeSetup(browser, existing, `botfirst-${Date.now()}@example.com`);
    expect(done.status).toBe(200);
    expect(done.body.id).toBe(existing);
  });

  /** A reminder of `accountId` that was delivered after one retry: a delivery and two attempts. */
  async function insertDeliveredReminder(accountId: string) {
    const db = server.app.db;
    const now = nowIso();
    const [reminderId, destinationId, deliveryId] = [newId(), newId(), newId()];
    await db
      .insertInto('reminders')
      .values({ id: reminderId, account_id: accountId, message: 'Water the plants', local_date: '2030-06-01', local_time: '09:00', remind_at_utc: '2030-06-01T00:00:00.000Z', timezone: 'Asia/Tokyo', recurrence_type: 'DAILY', is_paused: 0, snoozed_at_utc: null, next_fire_utc: '2030-06-02T00:00:00.000Z', next_occurrence_utc: '2030-06-02T00:00:00.000Z', last_fired_at: now, completed_at: null, created_at: now, updated_at: now } as never)
      .execute();
    await db.insertInto('destinations').values({ id: destinationId, reminder_id: reminderId, type: 'webhook', metadata: JSON.stringify({ url: 'https://hooks.example.com/x', platform: 'generic' }), secret: null, position: 0, disabled_at: null, disabled_reason: null, created_at: now }).execute();
    const occurrence = { reminder_id: reminderId, destination_id: destinationId, account_id: accountId, occurrence_utc: '2030-06-01T00:00:00.000Z' };
    await db.insertInto('deliveries').values({ id: deliveryId, ...occurrence, idempotency_key: newId(), status: 'delivered', attempts: 2, next_attempt_at: null, late: 0, last_error: null, created_at: now, updated_at: now, delivered_at: now }).execute();
    for (const attempt of [1, 2]) {
      await db
        .insertInto('delivery_attempts')
        .values({ delivery_id: deliveryId, ...occurrence, attempt, outcome: attempt === 1 ? 'retrying' : 'delivered', error: attempt === 1 ? 'HTTP 503' : null, http_status: attempt === 1 ? 503 : 200, discord_code: null, duration_ms: 5, created_at: now })
        .execute();
    }
    return { reminderId, deliveryId };
  }

  it('linking it from an app account moves its data there instead of refusing', async () => {
    const discordId = discordUser('stub');
    const stub = await insertBotCreatedAccount(discordId);
    const { reminderId, deliveryId } = await insertDeliveredReminder(stub);
    const app = await signUp(server.url);
    const res = await new Browser(app.token).signInWithDiscord(discordId, 'link');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(app.id);
    expect((await discordIdentityRow(discordId))!.account_id).toBe(app.id);
    const gone = await server.app.db.selectFrom('accounts').select('id').where('id', '=', stub).executeTakeFirst();
    expect(gone).toBeUndefined();

    // The reminder came along with its delivery history: the delivery and both attempts.
    const db = server.app.db;
    expect((await db.selectFrom('deliveries').select('account_id').where('id', '=', deliveryId).executeTakeFirst())?.account_id).toBe(app.id);
    const attempts = await db.selectFrom('delivery_attempts').select(['account_id', 'attempt']).where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
    expect(attempts).toEqual([
      { account_id: app.id, attempt: 1 },
      { account_id: app.id, attempt: 2 },
    ]);
    const history = await app.api.get(`/api/reminders/${reminderId}/deliveries`);
    expect(history.status).toBe(200);
    expect(history.body.deliveries).toHaveLength(1);
    expect(history.body.deliveries[0].attempts.map((a: { http_status: number }) => a.http_status)).toEqual([503, 200]);
  });
});

describe('linking Discord to a signed-in app account', () => {
  it('attaches the identity and answers like a login', async () => {
    const user = await signUp(server.url);
    const discordId = discordUser('linker');
    const browser = new Browser(user.token);

    const before = await user.api.get('/api/account/capabilities');
    expect(before.body.hasDiscordIdentity).toBe(false);

    const res = await browser.signInWithDiscord(discordId, 'link');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: user.id, email: user.email, username: user.username, token: expect.any(String), expires_at: expect.any(String), language: null });

    const me = await user.api.get('/api/account');
    expect(me.body.identities).toContainEqual({ provider: 'discord', username: 'linker', external_id: discordId });
    const caps = await user.api.get('/api/account/capabilities');
    expect(caps.body).toMatchObject({ hasDiscordIdentity: true, hasAppIdentity: true, discordConfigured: true });

    // Signing in with Discord later lands in the same account.
    const login = await new Browser().signInWithDiscord(discordId);
    expect(login.body.id).toBe(user.id);
  });

  it('refuses a Discord account already linked to another Chime account (409)', async () => {
    const first = await signUp(server.url);
    const discordId = discordUser('taken');
    expect((await new Browser(first.token).signInWithDiscord(discordId, 'link')).status).toBe(200);

    const second = await signUp(server.url);
    const res = await new Browser(second.token).signInWithDiscord(discordId, 'link');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'DISCORD_ALREADY_LINKED', error: 'This Discord account is already linked to another Chime account' });
    expect((await discordIdentityRow(discordId))!.account_id).toBe(first.id);
    const caps = await second.api.get('/api/account/capabilities');
    expect(caps.body.hasDiscordIdentity).toBe(false);
  });

  it('refuses to finish a link in the session of another account', async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    const discordId = discordUser('swapped');
    const browserA = new Browser(a.token);
    const { code, state } = await browserA.authorize(discordId, 'link');
    // Same cookie jar, but the request now carries b's session.
    const asB = new Browser(b.token);
    asB.cookies = browserA.cookies;
    const res = await asB.call('POST', '/api/auth/discord/callback', { code, state });
    expect(res.status).toBe(400);
    expect(await discordIdentityRow(discordId)).toBeUndefined();
  });
});
