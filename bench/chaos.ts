/**
 * Chaos (issue "Scale-out"): 3 instances of the real server (separate processes, the built bundle)
 * on one database; 20,000 reminders fall due at once; one instance is SIGKILLed mid-burst. Then
 * the instance holding the Discord gateway (a fake Discord in this process) is SIGKILLed too.
 *
 * Counts at the webhook sink (its own process): occurrences never delivered (must be 0),
 * occurrences delivered under two webhook-ids (a double claim: must be 0), webhooks received twice
 * with the same webhook-id (sends in flight at the kill: expected, bounded by what was in flight).
 * For the gateway: how long until another instance holds it (goal < 30 s), and whether a slash
 * command and a button pressed on a delivered message are answered afterwards.
 *
 * BENCH_CHAOS_SHARDS=4 spreads the gateway's 4 shards over the instances (DISCORD_SHARD_COUNT): the
 * instance killed second is the holder of shard 0, and the take-over counts until every shard is
 * held by a live instance and connected; a command is then sent in a server of each shard.
 *
 * On PostgreSQL (the setting: a throwaway database from BENCH_POSTGRES_URL, a role allowed
 * to CREATE DATABASE); BENCH_CHAOS_DB=sqlite runs it on one SQLite file shared by the 3 processes.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase } from '../server/db/connection.ts';
import { startFakeDiscord } from '../tests/helpers/fake-discord/index.ts';
import { databaseLabel, seedDue, throwawayDatabase } from './lib/any-database.ts';
import { startServerProcess, type ServerProcess } from './lib/server-process.ts';
import { startSinkProcess } from './webhook-sink.ts';

const INSTANCES = 3;
const DUE = Number(process.env.BENCH_CHAOS_DUE ?? 20_000);
const LEASE_SECONDS = 10;
const USER = '200000000000000001';
const GUILD = '300000000000000001';
const CHANNEL = '300000000000000011';
const SHARDS = Number(process.env.BENCH_CHAOS_SHARDS ?? 0);
/** A server of each shard: Discord routes a server to shard (id >> 22) % shards. */
const shardGuilds = Array.from({ length: SHARDS }, (_, s) => {
  const base = ((1n << 40n) + BigInt(s)) << 22n;
  return { id: base.toString(), channel: (base | 1n).toString() };
});
/** The lease whose holder is "the gateway holder": the single gateway's, or shard 0's. */
const HOLDER_LEASE = SHARDS > 0 ? 'gateway:shard:0' : 'discord-gateway';

/** Whether every shard's lease is held, unexpired, by one of `live` (server indexes). */
async function shardsHeldBy(servers: ServerProcess[], databaseUrl: string, live: number[]): Promise<boolean> {
  const { db } = createDatabase(databaseUrl);
  try {
    const rows = await db.selectFrom('leases').select(['name', 'owner', 'expires_at']).where('name', 'like', 'gateway:shard:%').execute();
    const now = new Date().toISOString();
    return shardGuilds.every((_, s) => {
      const row = rows.find((r) => r.name === `gateway:shard:${s}`);
      const index = servers.findIndex((x) => x.pid === Number(row?.owner.split(':')[1]));
      return row !== undefined && String(row.expires_at) > now && live.includes(index);
    });
  } finally {
    await db.destroy();
  }
}

async function holderOf(servers: ServerProcess[], databaseUrl: string): Promise<number> {
  const { db } = createDatabase(databaseUrl);
  try {
    const lease = await db.selectFrom('leases').select('owner').where('name', '=', HOLDER_LEASE).executeTakeFirst();
    // Owners read "<host>:<pid>:<random>...".
    const pid = Number(lease?.owner.split(':')[1]);
    return servers.findIndex((s) => s.pid === pid);
  } finally {
    await db.destroy();
  }
}

export async function run() {
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-chaos-'));
  const database = await throwawayDatabase(process.env.BENCH_CHAOS_DB === 'sqlite' ? 'sqlite' : 'postgres', dir);
  const databaseUrl = database.url;
  const sink = await startSinkProcess();
  const fake = await startFakeDiscord();
  fake.addUser({ id: USER, username: 'alice', locale: 'en-US' });
  fake.addGuild({ id: GUILD, name: 'Chaos', ownerId: USER, channels: [{ id: CHANNEL, name: 'general' }], members: [{ userId: USER }] });
  for (const [s, g] of shardGuilds.entries()) {
    fake.addGuild({ id: g.id, name: `Shard ${s}`, ownerId: USER, channels: [{ id: g.channel, name: 'general' }], members: [{ userId: USER }] });
  }
  // Big bots identify 16 shards per 5 s.
  if (SHARDS > 0) fake.maxConcurrency = 16;
  const servers: ServerProcess[] = [];
  try {
    // Seeded due far ahead, then aimed once every instance is up (they learn it from the database).
    const dueAtMs = Date.now() + 45_000;
    await seedDue(databaseUrl, DUE, `${sink.url}/hook`, new Date(dueAtMs).toISOString());
    console.log(`seeded ${DUE} reminders; starting ${INSTANCES} instances`);
    const env = {
      DATABASE_URL: databaseUrl,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SERVE_WEB: 'false',
      LOG_LEVEL: 'warn',
      DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
      DISCORD_TOKEN: fake.botToken,
      DISCORD_CLIENT_ID: fake.clientId,
      DISCORD_CLIENT_SECRET: fake.clientSecret,
      DISCORD_API_URL: fake.apiUrl,
      PUBLIC_URL: 'http://chime.test',
      ...(SHARDS > 0 ? { DISCORD_SHARD_COUNT: String(SHARDS) } : {}),
    };
    for (let i = 0; i < INSTANCES; i++) servers.push(await startServerProcess(env, 3921 + i));
    if (Date.now() > dueAtMs - 1000) throw new Error('instances started after the burst was due');

    // Kill one instance (not the gateway holder: that is the second act) a third into the burst.
    const holder = await holderOf(servers, databaseUrl);
    console.log(`instances up (gateway on #${holder}); burst due in ${Math.round((dueAtMs - Date.now()) / 1000)} s`);
    const victim = servers.findIndex((_, i) => i !== holder);
    for (;;) {
      const s = await sink.stats();
      if (s.unique_ids >= DUE / 3) break;
      if (Date.now() > dueAtMs + 120_000) throw new Error('burst did not start');
      await new Promise((r) => setTimeout(r, 5));
    }
    servers[victim]!.child.kill('SIGKILL');
    await new Promise((r) => servers[victim]!.child.once('exit', r));
    const atKill = await sink.stats();
    console.log(`killed instance #${victim} with ${atKill.unique_ids} delivered`);

    const final = await sink.waitForCount(DUE, 240_000, 100);
    const receipts = await sink.receipts();
    const reminders = new Set(receipts.map((r) => r[1]));
    const burstSeconds = ((final.last_at ?? NaN) - dueAtMs) / 1000;

    // Second act: the gateway holder dies; another instance must take the gateway over.
    console.log(`burst delivered in ${burstSeconds.toFixed(1)} s; killing the gateway holder`);
    const before = await holderOf(servers, databaseUrl);
    const killedAt = Date.now();
    servers[before]!.child.kill('SIGKILL');
    await new Promise((r) => servers[before]!.child.once('exit', r));
    let takeoverMs = NaN;
    for (const until = Date.now() + 60_000; Date.now() < until; ) {
      const live = servers.map((_, i) => i).filter((i) => i !== before && i !== victim);
      const movedOver =
        SHARDS > 0
          ? fake.gatewayConnections === SHARDS && (await shardsHeldBy(servers, databaseUrl, live))
          : (await holderOf(servers, databaseUrl)) >= 0 && (await holderOf(servers, databaseUrl)) !== before && fake.gatewayConnections >= 1;
      if (movedOver) {
        takeoverMs = Date.now() - killedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    console.log(`gateway taken over after ${takeoverMs} ms`);
    await fake.waitFor(() => fake.gatewayConnections >= 1, 10_000, 'gateway');
    const slash = fake.dispatchInteraction(fake.slashCommand({ userId: USER, name: 'reminders', guildId: GUILD, channelId: CHANNEL }));
    const slashAnswered = await fake.waitForInteractionResponse(slash.id, { timeoutMs: 10_000 }).then(
      () => true,
      () => false,
    );
    const button = fake.dispatchInteraction(fake.buttonPress({ userId: USER, customId: `rem:done:${randomUUID()}:${new Date().toISOString()}`, guildId: GUILD, channelId: CHANNEL }));
    const buttonAnswered = await fake.waitForInteractionResponse(button.id, { timeoutMs: 10_000 }).then(
      () => true,
      () => false,
    );

    // Sharded: a command in a server of each shard, each answered by the instance now holding it.
    let shardsAnswered = 0;
    for (const g of shardGuilds) {
      const each = fake.dispatchInteraction(fake.slashCommand({ userId: USER, name: 'reminders', guildId: g.id, channelId: g.channel }));
      const answered = await fake.waitForInteractionResponse(each.id, { timeoutMs: 10_000 }).then(
        () => true,
        () => false,
      );
      if (answered && fake.interactionResponses(each.id).length === 1) shardsAnswered += 1;
    }

    console.log('interactions answered:', slashAnswered, buttonAnswered, SHARDS > 0 ? `${shardsAnswered}/${SHARDS} shards` : '');
    return {
      database: databaseLabel(databaseUrl),
      instances: INSTANCES,
      due_at_once: DUE,
      received_at_kill: atKill.unique_ids,
      burst_seconds: Number(burstSeconds.toFixed(1)),
      deliveries_per_second: Math.round(DUE / burstSeconds),
      lost_occurrences: DUE - reminders.size,
      double_claimed_occurrences: final.duplicate_occurrences,
      resent_same_webhook_id: final.duplicate_ids,
      shards: SHARDS || 'auto, on one instance',
      gateway_takeover_ms: takeoverMs,
      shards_answered: SHARDS > 0 ? shardsAnswered : null,
      slash_command_answered: slashAnswered,
      button_answered: buttonAnswered,
    };
  } finally {
    for (const s of servers) await s.stop('SIGKILL').catch(() => {});
    await sink.stop();
    await fake.close();
    await database.drop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run();
  console.log(`Chaos: ${INSTANCES} instances on one database, one SIGKILLed mid-burst, then the gateway holder:`);
  console.table(figures);
  const ok =
    figures.lost_occurrences === 0 &&
    figures.double_claimed_occurrences === 0 &&
    figures.gateway_takeover_ms < 30_000 &&
    figures.slash_command_answered &&
    figures.button_answered &&
    (SHARDS === 0 || figures.shards_answered === SHARDS);
  console.log(ok ? 'OK: nothing lost or claimed twice; the gateway moved within 30 s and the bot answers.' : 'NOT OK');
}
