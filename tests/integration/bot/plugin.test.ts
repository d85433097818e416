// Runs on SQLite only: connecting, registering and disconnecting the bot does not touch the database (vitest.config.ts).
/** Start-up and shut-down of the bot: dev-guild registration, a bad token, no Discord at all. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../../helpers/fake-discord/index.ts';
import { client, startTestServer } from '../../helpers/server.ts';
import { discordEnv, ids, seedDiscord } from '../../helpers/bot-harness.ts';

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
  seedDiscord(fake);
});
afterAll(async () => {
  await fake?.close();
});

it('registers the commands in the dev guild only when DISCORD_DEV_GUILD_ID is set, and disconnects on close', async () => {
  const server = await startTestServer({ env: { ...discordEnv(fake), DISCORD_DEV_GUILD_ID: ids.guild } });
  await server.app.bot!.whenReady();
  expect(fake.registeredCommands(ids.guild).map((c) => c.name).sort()).toEqual(['Remind me about this', 'remind', 'reminder', 'reminders', 'server', 'timezone']);
  expect(fake.registeredCommands()).toEqual([]);
  expect(fake.gatewayConnections).toBe(1);
  await server.close();
  await fake.waitFor(() => fake.gatewayConnections === 0, 3000, 'gateway closed');
});

it('a rejected token is logged, not fatal: the API keeps working', async () => {
  const server = await startTestServer({ env: { ...discordEnv(fake), DISCORD_TOKEN: 'not-the-token' } });
  await expect(server.app.bot!.whenReady()).rejects.toThrow();
  const health = await client(server.url).get('/healthz');
  expect(health.status).toBe(200);
  await server.close();
});

it('without Discord settings there is no bot and no Discord sender', async () => {
  const server = await startTestServer();
  expect(server.app.bot).toBeNull();
  await server.close();
});
