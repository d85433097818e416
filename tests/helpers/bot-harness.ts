/**
 * Shared set-up of the bot tests: a fake Discord, a real Chime server pointed at it (real
 * discord.js client, real SQLite), and small helpers to run interactions and read the database.
 */
import type { FastifyInstance } from 'fastify';
import { startFakeDiscord, type FakeDiscord } from './fake-discord/index.ts';
import type { InteractionResponseRecord, StoredMessage } from './fake-discord/types.ts';
import { startTestServer, type TestServer } from './server.ts';

export const PUBLIC_URL = 'http://chime.test';

/** Snowflake-looking ids (17-20 digits) for the fixtures. */
export const ids = {
  alice: '200000000000000001',
  bob: '200000000000000002',
  carol: '200000000000000003',
  guild: '300000000000000001',
  general: '300000000000000011',
  readonly: '300000000000000012',
  hidden: '300000000000000013',
  voice: '300000000000000014',
  thread: '300000000000000031',
  team: '300000000000000021',
  locked: '300000000000000022',
  otherGuild: '300000000000000101',
  otherChannel: '300000000000000111',
};

// Discord permission bits used by the fixtures.
export const P = {
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  MentionEveryone: 1n << 17n,
};

export function seedDiscord(fake: FakeDiscord): void {
  fake.addUser({ id: ids.alice, username: 'alice', locale: 'en-US' });
  fake.addUser({ id: ids.bob, username: 'bob', locale: 'fr' });
  fake.addUser({ id: ids.carol, username: 'carol', locale: 'es-ES' });
  fake.addGuild({
    id: ids.guild,
    name: 'Test Guild',
    ownerId: ids.carol,
    roles: [
      { id: ids.team, name: 'team', mentionable: true },
      { id: ids.locked, name: 'locked', mentionable: false },
    ],
    channels: [
      { id: ids.general, name: 'general' },
      // Everyone can read, nobody can write.
      { id: ids.readonly, name: 'announcements', permission_overwrites: [{ id: ids.guild, type: 0, deny: P.SendMessages }] },
      // Alice may write but the bot is kept out.
      { id: ids.hidden, name: 'private', permission_overwrites: [{ id: fake.clientId, type: 1, deny: P.ViewChannel }] },
      { id: ids.voice, name: 'voice', type: 2 },
      // A public thread of #general.
      { id: ids.thread, name: 'plans', type: 11, parent_id: ids.general },
    ],
    members: [{ userId: ids.alice }, { userId: ids.bob }],
  });
  fake.addGuild({
    id: ids.otherGuild,
    name: 'Bot-less Guild',
    ownerId: ids.alice,
    channels: [{ id: ids.otherChannel, name: 'lobby' }],
    members: [{ userId: ids.alice }],
    botMember: false,
  });
}

export interface BotEnv {
  fake: FakeDiscord;
  server: TestServer;
  app: FastifyInstance;
}

export function discordEnv(fake: FakeDiscord): Record<string, string> {
  return {
    DISCORD_TOKEN: fake.botToken,
    DISCORD_CLIENT_ID: fake.clientId,
    DISCORD_CLIENT_SECRET: fake.clientSecret,
    DISCORD_API_URL: fake.apiUrl,
    PUBLIC_URL,
  };
}

export async function startChime(fake: FakeDiscord, dir?: string): Promise<TestServer> {
  const server = await startTestServer({ ...(dir ? { dir } : {}), env: discordEnv(fake) });
  await server.app.bot!.whenReady();
  // The guild cache (Guilds intent) is filled right after READY.
  await fake.waitFor(() => server.app.bot!.client.guilds.cache.has(ids.guild), 3000, 'guild cache');
  return server;
}

export async function startBotEnv(): Promise<BotEnv> {
  const fake = await startFakeDiscord();
  seedDiscord(fake);
  const server = await startChime(fake);
  return { fake, server, app: server.app };
}

/**
 * Dispatches an interaction and waits for its answer: the first response, or, when that was a
 * deferral (the bot was slow: bot/replies/reply.ts), the response that followed it, with the deferral's
 * flags (ephemeral).
 */
export async function interact(fake: FakeDiscord, payload: Record<string, any>): Promise<InteractionResponseRecord & { id: string }> {
  const { id } = fake.dispatchInteraction(payload);
  const first = await fake.waitForInteractionResponse(id, { timeoutMs: 5000 });
  if (first.kind !== 'callback' || (first.type !== 5 && first.type !== 6)) return { ...first, id };
  const answer = await fake.waitForInteractionResponse(id, { count: 2, timeoutMs: 10_000 });
  return { ...answer, id, data: { ...answer.data, flags: Number(first.data?.flags ?? 0) | Number(answer.data?.flags ?? 0) } };
}

/** Runs a slash command and returns the reply's text. */
export async function command(
  fake: FakeDiscord,
  input: { userId: string; name: string; options?: any[]; guildId?: string; channelId?: string; locale?: string },
): Promise<{ content: string; flags: number; data: any; id: string }> {
  const r = await interact(fake, fake.slashCommand(input));
  return { content: String(r.data?.content ?? ''), flags: Number(r.data?.flags ?? 0), data: r.data, id: r.id };
}

export const EPHEMERAL = 1 << 6;

export async function reminderRows(app: FastifyInstance, accountId?: string) {
  let q = app.db.selectFrom('reminders').selectAll().orderBy('created_at');
  if (accountId) q = q.where('account_id', '=', accountId);
  return q.execute();
}

export async function accountOf(app: FastifyInstance, discordUserId: string) {
  const identity = await app.db.selectFrom('identities').selectAll().where('provider', '=', 'discord').where('external_id', '=', discordUserId).executeTakeFirst();
  if (!identity) return undefined;
  return app.db.selectFrom('accounts').selectAll().where('id', '=', identity.account_id).executeTakeFirst();
}

/** Makes a reminder due now and lets the real scheduler deliver it. */
export async function fireNow(app: FastifyInstance, reminderId: string): Promise<void> {
  const now = new Date(Date.now() - 1000).toISOString();
  await app.db.updateTable('reminders').set({ next_fire_utc: now, next_occurrence_utc: now, remind_at_utc: now }).where('id', '=', reminderId).execute();
  app.scheduler.wake();
}

export async function waitForMessages(fake: FakeDiscord, get: () => StoredMessage[], count = 1, timeoutMs = 5000): Promise<StoredMessage[]> {
  return fake.waitFor(() => (get().length >= count ? get() : null), timeoutMs, `${count} message(s)`);
}

/** Bearer token for an account made by the bot (it has no password to log in with). */
export async function sessionFor(app: FastifyInstance, accountId: string): Promise<string> {
  const { openSession } = await import('../../server/accounts/sessions.ts');
  return (await openSession(app.db, accountId, 3_600_000)).token;
}
