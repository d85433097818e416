/**
 * Several instances on one database (docs/operations.md "Running several instances"): exactly one holds the
 * Discord gateway and registers the commands; when it dies, another takes over and the bot keeps
 * answering. And the gateway is sharded as Discord recommends.
 */
import { sql } from 'kysely';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../../server/db/connection.ts';
import { migrateToLatest } from '../../../server/db/migrate.ts';
import { closeBotRest, createBotRest } from '../../../server/discord/rest.ts';
import { startFakeDiscord, type FakeDiscord } from '../../helpers/fake-discord/index.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { command, discordEnv, ids, seedDiscord } from '../../helpers/bot-harness.ts';
import { onPostgres, releaseTestDatabase, testDatabaseUrl } from '../../helpers/test-database.ts';

// 3 s: an instance whose event loop a loaded machine stalls for a second still renews in time.
const LEASE = { ttlMs: 3000, renewEveryMs: 250 };

/**
 * Each test has its own fake Discord and its own database, so no test waits for an earlier test's
 * servers to let go of the gateway: what a test counts (gateway connections, command
 * registrations, lock holders) is only its own instances'. Every server closes in afterAll.
 */
let fake: FakeDiscord;
let dir: string;
const fakes: FakeDiscord[] = [];
const dirs: string[] = [];
const servers: TestServer[] = [];

beforeEach(async () => {
  fake = await startFakeDiscord();
  seedDiscord(fake);
  fakes.push(fake);
  dir = mkdtempSync(path.join(tmpdir(), 'chime-lease-'));
  dirs.push(dir);
});
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => {});
  for (const f of fakes) await f.close();
  for (const d of dirs) {
    await releaseTestDatabase(d);
    rmSync(d, { recursive: true, force: true });
  }
});

const start = async () => {
  const server = await startTestServer({ dir, env: discordEnv(fake), overrides: { gatewayLease: LEASE } });
  servers.push(server);
  return server;
};

/** A step with no bound of its own (a login, a server start), bounded so a hang names itself. */
async function within<T>(ms: number, step: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${step}: not done within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
const commandRegistrations = () => fake.requests.filter((r) => r.method === 'PUT' && /\/applications\/\d+\/commands$/.test(r.path)).length;

it('one instance holds the gateway; when it dies another takes over within the lease and answers commands', async () => {
  const a = await start();
  await a.app.bot!.whenReady();
  const b = await start();
  // Several rounds of asking: b keeps trying and must keep failing.
  const bRounds = b.app.gatewayLeadership!.rounds;
  await fake.waitFor(() => b.app.gatewayLeadership!.rounds >= bRounds + 4, 30_000, 'b asks for the lease four more times');
  expect(a.app.gatewayLeadership!.isLeader).toBe(true);
  expect(b.app.gatewayLeadership!.isLeader).toBe(false);
  expect(fake.gatewayConnections).toBe(1);
  expect(commandRegistrations()).toBe(1);
  expect((await command(fake, { userId: ids.alice, name: 'reminders', guildId: ids.guild, channelId: ids.general })).content).not.toBe('');

  // A crash: the connection drops and the lease is not given back.
  const killedAt = Date.now();
  a.app.gatewayLeadership!.halt();
  await a.app.bot!.disconnect();
  await fake.waitFor(() => fake.gatewayConnections === 0, 10_000, 'gateway closed');
  await fake.waitFor(() => b.app.gatewayLeadership!.isLeader, LEASE.ttlMs + LEASE.renewEveryMs * 8, 'b takes the gateway');
  const takeoverMs = Date.now() - killedAt;
  if (onPostgres) {
    // The advisory lock went with the dead holder's session: no lease to wait out.
    expect(takeoverMs).toBeLessThan(LEASE.ttlMs);
  } else {
    // The lease row must expire first: renewed at most renewEvery before the crash.
    expect(takeoverMs).toBeGreaterThanOrEqual(LEASE.ttlMs - LEASE.renewEveryMs);
  }
  await b.app.bot!.whenReady();
  await fake.waitFor(() => fake.gatewayConnections === 1, 3000, 'gateway reconnected');
  await fake.waitFor(() => b.app.bot!.client.guilds.cache.has(ids.guild), 3000, 'guild cache');
  const reply = await command(fake, { userId: ids.alice, name: 'reminders', guildId: ids.guild, channelId: ids.general });
  expect(reply.content).not.toBe('');
  expect(commandRegistrations()).toBe(2);
});

it('a clean shutdown gives the lease back at once: the next instance need not wait for it to expire', async () => {
  const a = await start();
  await a.app.bot!.whenReady();
  expect(a.app.gatewayLeadership!.isLeader).toBe(true);
  await a.close();
  const b = await start();
  const before = Date.now();
  await b.app.bot!.whenReady();
  expect(Date.now() - before).toBeLessThan(LEASE.ttlMs);
  expect(b.app.gatewayLeadership!.isLeader).toBe(true);
});

it('connects as many shards as Discord recommends, each receiving its own guilds', async () => {
  fake.recommendedShards = 2;
  const server = await start();
  await server.app.bot!.whenReady();
  await fake.waitFor(() => fake.gatewayConnections === 2, 3000, 'two shards');
  await fake.waitFor(() => server.app.bot!.client.guilds.cache.has(ids.guild), 3000, 'guild cache');
  expect(server.app.bot!.client.options.shardCount).toBe(2);
  const reply = await command(fake, { userId: ids.alice, name: 'reminders', guildId: ids.guild, channelId: ids.general });
  expect(reply.content).not.toBe('');
});

it('keeps the Discord requests of every instance within one global budget', async () => {
  const database = createDatabase(await testDatabaseUrl(path.join(dir, 'rest-budget')));
  await migrateToLatest(database.db);
  const config = { token: fake.botToken, apiUrl: fake.apiUrl };
  // Two instances' REST clients with a budget of 10 a second between them.
  const rests = [await createBotRest(config, { db: database.db, perSecond: 10 }), await createBotRest(config, { db: database.db, perSecond: 10 })];
  try {
    const from = fake.requests.length;
    await Promise.all(Array.from({ length: 30 }, (_, i) => rests[i % 2]!.get('/users/@me')));
    const times = fake.requests
      .slice(from)
      .filter((r) => r.route === '/users/@me')
      .map((r) => r.at)
      .sort((x, y) => x - y);
    expect(times).toHaveLength(30);
    // Without the shared budget all 30 arrive at once (each client alone allows 50 a second).
    expect(times.filter((t) => t < times[0]! + 500)).toHaveLength(10);
    expect(times[29]! - times[0]!).toBeGreaterThanOrEqual(1500);
  } finally {
    for (const rest of rests) closeBotRest(rest);
    await database.db.destroy();
  }
});

it.runIf(onPostgres)('a holder whose lock connection drops stops the gateway at once, and one instance takes it again', async () => {
  const a = await start();
  await a.app.bot!.whenReady();
  const b = await start();
  const bRounds = b.app.gatewayLeadership!.rounds;
  await fake.waitFor(() => b.app.gatewayLeadership!.rounds >= bRounds + 3, 30_000, 'b asks for the lease three more times');
  expect(a.app.gatewayLeadership!.isLeader).toBe(true);
  expect(b.app.gatewayLeadership!.isLeader).toBe(false);
  const { rows: holders } = await sql<{ owner: string }>`select owner from leases where name = 'discord-gateway'`.execute(a.app.db);
  expect(holders).toEqual([{ owner: a.app.gatewayLeadership!.owner }]);

  // Never two gateways, at any moment of what follows.
  let most = 0;
  const sampler = setInterval(() => (most = Math.max(most, fake.gatewayConnections)), 5);
  try {
    // PostgreSQL ends the lock's session (a failover, an administrator, a dropped network path).
    const { rows } = await sql<{ ended: boolean }>`
      select pg_terminate_backend(a.pid) as ended from pg_stat_activity a join pg_locks l on l.pid = a.pid
      where l.locktype = 'advisory' and a.application_name = 'chime-gateway-lock' and a.datname = current_database()`.execute(a.app.db);
    expect(rows).toEqual([{ ended: true }]);
    const cutAt = Date.now();
    await fake.waitFor(() => !a.app.gatewayLeadership!.isLeader, 2000, 'a steps down');
    expect(Date.now() - cutAt).toBeLessThan(LEASE.renewEveryMs * 4);
    await fake.waitFor(() => a.app.gatewayLeadership!.isLeader !== b.app.gatewayLeadership!.isLeader, LEASE.ttlMs, 'one holder again');
    const holder = a.app.gatewayLeadership!.isLeader ? a : b;
    await holder.app.bot!.whenReady();
    await fake.waitFor(() => fake.gatewayConnections === 1 && holder.app.bot!.client.guilds.cache.has(ids.guild), 5000, 'gateway back');
    const reply = await command(fake, { userId: ids.alice, name: 'reminders', guildId: ids.guild, channelId: ids.general });
    expect(reply.content).not.toBe('');
  } finally {
    clearInterval(sampler);
  }
  expect(most).toBe(1);
});

it('an instance that lost the gateway takes it back and answers again', async () => {
  const a = await within(10_000, 'a started', start());
  await within(10_000, 'a ready', a.app.bot!.whenReady());
  const registered = commandRegistrations();
  if (onPostgres) {
    // PostgreSQL ends the lock's session.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'chime-gateway-lock' and datname = current_database()`.execute(a.app.db);
  } else {
    // Another instance's lease, as if it had taken over while this one could not renew.
    await sql`update leases set owner = 'another-instance', expires_at = ${new Date(Date.now() + LEASE.ttlMs).toISOString()}`.execute(a.app.db);
  }
  await fake.waitFor(() => !a.app.gatewayLeadership!.isLeader, LEASE.ttlMs, 'a steps down');
  await fake.waitFor(() => fake.gatewayConnections === 0, 10_000, 'gateway closed');
  await fake.waitFor(() => a.app.gatewayLeadership!.isLeader, LEASE.ttlMs * 2, 'a takes it back');
  await within(10_000, 'a ready again', a.app.bot!.whenReady());
  expect(a.app.bot!.client.isReady()).toBe(true);
  expect(commandRegistrations()).toBe(registered + 1);
  await fake.waitFor(() => a.app.bot!.client.guilds.cache.has(ids.guild), 3000, 'guild cache');
  const reply = await command(fake, { userId: ids.alice, name: 'reminders', guildId: ids.guild, channelId: ids.general });
  expect(reply.content).not.toBe('');
});
