/**
 * Run as its own process (tests/integration/server/destinations/discord-common/delivery-without-bot.test.ts): what a delivery thread does for
 * Discord, and nothing else. It opens the database, builds the senders the way
 * server/scheduler/worker/entry.ts does, sends one Discord direct message and one channel message,
 * and prints their results as one JSON line. Input in the environment: the Chime settings
 * (DATABASE_URL, DISCORD_*) and CHIME_TEST_ACCOUNT, CHIME_TEST_REMINDER, CHIME_TEST_CHANNEL (JSON).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../../server/config.ts';
import { createDatabase } from '../../server/db/connection.ts';
import type { DestinationType } from '../../server/db/database.ts';
import { createModuleSenders } from '../../server/scheduler/module-senders.ts';
import { createSenderDeps } from '../../server/scheduler/sender-deps.ts';
import type { SendContext, SendResult } from '../../server/scheduler/types.ts';

const silent = { level: 'silent', fatal() {}, error() {}, warn() {}, info() {}, debug() {}, trace() {}, silent() {}, child: () => silent } as unknown as FastifyBaseLogger;

const config = loadConfig(process.env);
const database = createDatabase(config.databaseUrl);
const owned = await createSenderDeps(database.db, config, silent);
const senders = createModuleSenders(owned.deps, { perHostConcurrency: 4 });
const account = JSON.parse(process.env.CHIME_TEST_ACCOUNT!) as SendContext['account'];
const reminder = JSON.parse(process.env.CHIME_TEST_REMINDER!) as SendContext['reminder'];
const channel = JSON.parse(process.env.CHIME_TEST_CHANNEL!) as Record<string, unknown>;

async function send(type: DestinationType, metadata: Record<string, unknown>): Promise<SendResult> {
  const now = new Date().toISOString();
  return senders.get(type)!.send({
    deliveryId: randomUUID(),
    idempotencyKey: randomUUID(),
    attempt: 1,
    reminder,
    account,
    destination: { id: randomUUID(), type, metadata, secret: null },
    occurrenceUtc: now,
    firedAt: now,
    late: false,
    signal: AbortSignal.timeout(10_000),
  });
}

const results = { dm: await send('discord_dm', {}), channel: await send('discord_channel', channel) };
process.stdout.write(`${JSON.stringify(results)}\n`);
await owned.close();
await Promise.allSettled([...senders.values()].map((s) => s.close?.()));
await database.db.destroy();
