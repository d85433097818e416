/**
 * The gateway's shards spread over instances (DISCORD_SHARD_COUNT, docs/operations.md "Spreading
 * the gateway's shards"): a lease per shard, each instance holding its fair share; a dead
 * instance's shards are taken over once their leases expire, and every guild's interactions are
 * answered once, by the instance holding its shard.
 */
import { afterAll, beforeEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeDiscord, type FakeDiscord } from '../../helpers/fake-discord/index.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { command, discordEnv, ids, seedDiscord } from '../../helpers/bot-harness.ts';
import { releaseTestDatabase } from '../../helpers/test-database.ts';
import { loadConfig } from '../../../server/config.ts';

const LEASE = { ttlMs: 3000, renewEveryMs: 250 };
const SHARDS = 4;

/** A guild of each shard: Discord routes a guild to shard (id >> 22) % count. */
const shardGuild = (shard: number) => ({
  id: (((1n << 40n) + BigInt(shard)) << 22n).toString(),
  channel: (((1n << 40n) + BigInt(shard)) << 22n | 1n).toString(),
});

let fake: FakeDiscord;
let dir: string;
const fakes: FakeDiscord[] = [];
const dirs: string[] = [];
const servers: TestServer[] = [];

beforeEach(async () => {
  fake = await startFakeDiscord();
  seedDiscord(fake);
  // Sixteen IDENTIFYs per 5 s, as Discord gives big bots: no test waits 5 s between two shards.
  fake.maxConcurrency = 16;
  for (let s = 0; s < SHARDS; s += 1) {
    const g = shardGuild(s);
    fake.addGuild({ id: g.id, name: `Shard ${s}`, ownerId: ids.carol, channels: [{ id: g.channel, name: 'general' }], members: [{ userId: ids.alice }] });
  }
  fakes.push(fake);
  dir = mkdtempSync(path.join(tmpdir(), 'chime-shards-'));
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

const start = async (shardCount = String(SHARDS)) => {
  const server = await startTestServer({ dir, env: { ...discordEnv(fake), DISCORD_SHARD_COUNT: shardCount }, overrides: { gatewayLease: LEASE } });
  servers.push(server);
  return server;
};

const held = (s: TestServer) => s.app.gatewayShards?.shards ?? [];
/** Connected with exactly the shards it holds, every one ready. */
const settled = (s: TestServer) => {
  const clients = s.app.bot!.shardClients;
  return (
    JSON.stringify([...clients.keys()].sort()) === JSON.stringify(held(s)) &&
    [...clients].every(([id, c]) => c.isReady() && JSON.stringify(c.options.shards) === JSON.stringify([id]) && c.options.shardCount === SHARDS)
  );
};
/** The client of the shard a guild belongs to, on the instance holding it. */
const clientOf = (s: TestServer, shard: number) => s.app.bot!.shardClients.get(shard)!;
const cached = (s: TestServer, guildId: string) => [...s.app.bot!.shardClients.values()].some((c) => c.guilds.cache.has(guildId));
const holderOf = (shard: number, among: TestServer[]) => among.filter((s) => held(s).includes(shard));

/** Every shard's guild is in the cache of exactly the instance holding the shard, and its command is answered once. */
async function checkEveryShard(among: TestServer[]): Promise<void> {
  for (let s = 0; s < SHARDS; s += 1) {
    const g = shardGuild(s);
    const holders = holderOf(s, among);
    expect(holders, `holders of shard ${s}`).toHaveLength(1);
    await fake.waitFor(() => clientOf(holders[0]!, s).guilds.cache.has(g.id), 5000, `guild of shard ${s} cached by its holder`);
    for (const other of among.filter((x) => x !== holders[0])) expect(cached(other, g.id)).toBe(false);
    // A guild event reaches one gateway session among all instances: the holder's.
    expect(fake.dispatch('CHIME_PROBE', { guild_id: g.id })).toBe(1);
    const renamed = `general-${Date.now()}`;
    fake.updateChannel(g.channel, { name: renamed });
    await fake.waitFor(() => (clientOf(holders[0]!, s).channels.cache.get(g.channel) as { name?: string } | undefined)?.name === renamed, 5000, `channel update of shard ${s}`);
    const reply = await command(fake, { userId: ids.alice, name: 'reminders', guildId: g.id, channelId: g.channel });
    expect(reply.content).not.toBe('');
    expect(fake.interactionResponses(reply.id)).toHaveLength(1);
  }
  // A DM arrives over shard 0.
  const dm = await command(fake, { userId: ids.alice, name: 'reminders' });
  expect(dm.content).not.toBe('');
  expect(fake.interactionResponses(dm.id)).toHaveLength(1);
}

/** Two instances, 2 shards each, every shard connected. */
async function twoInstances(): Promise<[TestServer, TestServer]> {
  const a = await start();
  const b = await start();
  await fake.waitFor(
    () => held(a).length === 2 && held(b).length === 2 && settled(a) && settled(b) && fake.gatewayConnections === SHARDS,
    LEASE.ttlMs * 4,
    'two shards each, connected',
  );
  expect([...held(a), ...held(b)].sort()).toEqual([0, 1, 2, 3]);
  return [a, b];
}

it('spreads 4 shards over 2 instances, 2 each: each shard\'s events and interactions reach one instance', async () => {
  const [a, b] = await twoInstances();
  await checkEveryShard([a, b]);
  // The holder of shard 0 registered the commands.
  expect(fake.requests.filter((r) => r.method === 'PUT' && /\/applications\/\d+\/commands$/.test(r.path)).length).toBeGreaterThanOrEqual(1);
});

it('when an instance dies, the other takes all 4 shards once their leases expire, and answers in each', async () => {
  const [a, b] = await twoInstances();
  // A crash: the connections drop and no lease is given back.
  const killedAt = Date.now();
  a.app.gatewayShards!.halt();
  await a.app.bot!.useShards([], SHARDS);
  await fake.waitFor(() => fake.gatewayConnections === 2, 5000, "the dead instance's shards closed");
  await fake.waitFor(() => held(b).length === SHARDS, LEASE.ttlMs + LEASE.renewEveryMs * 8, 'b takes every shard');
  // Its leases had to expire first: renewed at most renewEvery before the crash.
  expect(Date.now() - killedAt).toBeGreaterThanOrEqual(LEASE.ttlMs - LEASE.renewEveryMs);
  await fake.waitFor(() => settled(b) && fake.gatewayConnections === SHARDS, 5000, 'b connected to all 4');
  await checkEveryShard([b]);
});

it('a third instance joining gets its share: the others give shards back', async () => {
  const a = await start();
  await fake.waitFor(() => held(a).length === SHARDS && settled(a), LEASE.ttlMs * 2, 'a alone holds all 4');
  const b = await start();
  const c = await start();
  // ceil(4 / 3) = 2: 2 + 1 + 1 or 2 + 2 + 0, every shard held once.
  await fake.waitFor(
    () => {
      const all = [a, b, c].flatMap(held).sort();
      return JSON.stringify(all) === '[0,1,2,3]' && [a, b, c].every((s) => held(s).length <= 2 && settled(s)) && fake.gatewayConnections === SHARDS;
    },
    LEASE.ttlMs * 4,
    'spread over three',
  );
  await checkEveryShard([a, b, c]);
});

it('an instance closed while a shard logs in leaves no gateway session behind', async () => {
  // The login's first request (GET /gateway/bot) is still out when the instance gives the shard up.
  const gatewayInfo = fake.holdNext({ method: 'GET', pathPattern: /\/gateway\/bot$/ });
  const a = await start('1');
  await gatewayInfo.reached;
  const closing = a.close();
  await fake.waitFor(() => a.app.bot!.shardClients.size === 0, 5000, 'the shard given up');
  gatewayInfo.release();
  await closing;
  await fake.waitFor(() => fake.gatewaySessionsStarted === 1, 5000, 'the login went on once Discord answered');
  await fake.waitFor(() => fake.gatewayConnections === 0, 5000, 'no session left open');
});

it('with DISCORD_SHARD_COUNT=auto spreads as many shards as Discord recommends', async () => {
  fake.recommendedShards = 2;
  const a = await start('auto');
  await fake.waitFor(() => held(a).length === 2 && fake.gatewayConnections === 2, LEASE.ttlMs * 2, 'a holds both shards');
  await fake.waitFor(() => [...a.app.bot!.shardClients.values()].every((c) => c.isReady() && c.options.shardCount === 2), 5000, 'both connected');
  expect(a.app.gatewayShards!.shardCount).toBe(2);
  expect(a.app.gatewayLeadership).toBeNull();
});

it('reads DISCORD_SHARD_COUNT: unset (one instance holds the whole gateway), a number, or auto', () => {
  const env = { DISCORD_TOKEN: 'token', DISCORD_CLIENT_ID: '123456789012345678', DISCORD_CLIENT_SECRET: 'secret' };
  expect(loadConfig(env).discord!.shardCount).toBeNull();
  expect(loadConfig({ ...env, DISCORD_SHARD_COUNT: '4' }).discord!.shardCount).toBe(4);
  expect(loadConfig({ ...env, DISCORD_SHARD_COUNT: ' Auto ' }).discord!.shardCount).toBe('auto');
  expect(() => loadConfig({ ...env, DISCORD_SHARD_COUNT: '0' })).toThrow(/DISCORD_SHARD_COUNT must be a whole number from 1 to 10000 \(got "0"\)/);
  expect(() => loadConfig({ ...env, DISCORD_SHARD_COUNT: 'many' })).toThrow(/DISCORD_SHARD_COUNT must be a whole number/);
});
