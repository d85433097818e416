/**
 * One Discord user, one Chime account: the bot (slash commands) and the dashboard's Discord
 * sign-in create Discord-only accounts through the same path (server/accounts/discord-accounts.ts),
 * so whichever comes first, the other lands in that account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccountForDiscordUser, signInDiscordUser } from '../../../../server/accounts/discord-accounts.ts';
import { accountOf, command, ids, reminderRows, startBotEnv, type BotEnv } from '../../../helpers/bot-harness.ts';
import { client } from '../../../helpers/server.ts';

let env: BotEnv;
beforeAll(async () => {
  env = await startBotEnv();
});
afterAll(async () => {
  await env?.server.close();
  await env?.fake.close();
});

/** A browser with a cookie jar, signing in through the fake's OAuth authorize page. */
class Browser {
  cookies = new Map<string, string>();

  async call(method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { origin: env.server.url };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(env.server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const idx = pair!.indexOf('=');
      const name = pair!.slice(0, idx).trim();
      const value = pair!.slice(idx + 1).trim();
      if (!value || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  async signInWithDiscord(discordId: string) {
    const start = await this.call('GET', '/api/auth/discord/authorize-url?mode=login');
    expect(start.status).toBe(200);
    env.fake.setAuthorizingUser(discordId);
    const redirect = await fetch(start.body.url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const target = new URL(redirect.headers.get('location')!);
    return this.call('POST', '/api/auth/discord/callback', { code: target.searchParams.get('code'), state: target.searchParams.get('state') });
  }
}

async function discordIdentities(discordId: string) {
  return env.app.db.selectFrom('identities').selectAll().where('provider', '=', 'discord').where('external_id', '=', discordId).execute();
}

describe('a Discord user of the bot who later signs in with Discord', () => {
  it('ends up in the account the bot created, with its reminders', async () => {
    const r = await command(env.fake, {
      userId: ids.alice,
      name: 'remind',
      options: [
        { name: 'message', value: 'Made in Discord' },
        { name: 'when', value: 'in 2 hours' },
      ],
    });
    expect(r.content).toContain('your direct messages');
    const fromBot = (await accountOf(env.app, ids.alice))!;
    expect(fromBot).toMatchObject({ email: null, username: 'alice', timezone: 'UTC', locale: 'en-US' });
    const [reminder] = await reminderRows(env.app, fromBot.id);
    expect(reminder!.message).toBe('Made in Discord');

    const browser = new Browser();
    const signIn = await browser.signInWithDiscord(ids.alice);
    expect(signIn.status).toBe(200);
    expect(signIn.body).toMatchObject({ status: 'setup_required', needs_setup: true, account_id: fromBot.id, discord_username: 'alice' });

    // Still one identity and one account; the sign-in stored its grant on that identity.
    const identities = await discordIdentities(ids.alice);
    expect(identities).toHaveLength(1);
    expect(identities[0]!.account_id).toBe(fromBot.id);
    expect(identities[0]!.access_token).toBeTruthy();
    const stubs = await env.app.db.selectFrom('accounts').select('id').where('username', '=', 'alice').execute();
    expect(stubs.map((a) => a.id)).toEqual([fromBot.id]);

    const setup = await browser.call('POST', '/api/auth/discord/setup', {
      account_id: fromBot.id,
      email: `alice-${Date.now()}@example.com`,
      username: 'Alice',
      password: 'correct horse battery',
      timezone: 'Europe/Paris',
    });
    expect(setup.status).toBe(200);
    expect(setup.body.id).toBe(fromBot.id);

    const list = await client(env.server.url, setup.body.token).get('/api/reminders');
    expect(list.body.map((x: { id: string }) => x.id)).toEqual([reminder!.id]);

    // The bot keeps using the same account after setup.
    await command(env.fake, { userId: ids.alice, name: 'reminders' });
    expect((await accountOf(env.app, ids.alice))!.id).toBe(fromBot.id);
    expect(await discordIdentities(ids.alice)).toHaveLength(1);
  });
});

describe('a Discord user who signs in first and uses the bot later', () => {
  it('the bot finds the account the sign-in created', async () => {
    const signIn = await new Browser().signInWithDiscord(ids.bob);
    expect(signIn.status).toBe(200);
    expect(signIn.body.status).toBe('setup_required');
    const accountId = signIn.body.account_id as string;
    expect((await accountOf(env.app, ids.bob))).toMatchObject({ id: accountId, email: null, username: 'bob', timezone: 'UTC', locale: 'fr' });

    await command(env.fake, { userId: ids.bob, name: 'reminders', locale: 'fr' });
    expect((await accountOf(env.app, ids.bob))!.id).toBe(accountId);
    expect(await discordIdentities(ids.bob)).toHaveLength(1);
  });
});

describe('the bot and a sign-in creating the same Discord user at once', () => {
  it('make one account, and the sign-in grant is kept on its identity', async () => {
    const discordId = '200000000000000999';
    const tokens = { access_token: 'at-race', refresh_token: 'rt-race', expires_in: 3600, scope: 'identify guilds', token_type: 'Bearer' };
    const [fromBot, fromSignIn] = await Promise.all([
      ensureAccountForDiscordUser(env.app.db, { id: discordId, username: 'racer' }, 'en-US'),
      signInDiscordUser(env.app.db, { id: discordId, username: 'racer' }, tokens),
    ]);
    expect(fromSignIn.account.id).toBe(fromBot.id);
    expect(fromSignIn.needsSetup).toBe(true);
    const identities = await discordIdentities(discordId);
    expect(identities).toHaveLength(1);
    expect(identities[0]).toMatchObject({ account_id: fromBot.id, access_token: 'at-race', refresh_token: 'rt-race', scope: 'identify guilds' });
  });
});
