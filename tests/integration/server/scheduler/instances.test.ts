/**
 * Several instances on one database (docs/operations.md "Running several instances"): each delivery is sent
 * by one instance; when an instance dies mid-send (SIGKILL of a real process), another sends what
 * it held once its leases run out, and only the sends in flight at the kill arrive twice, with
 * their original webhook-id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../../../server/db/connection.ts';
import { startTestServer, type TestServer } from '../../../helpers/server.ts';
import { testDatabaseUrl } from '../../../helpers/test-database.ts';
import { seedAccount, seedReminder, startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';
import { startChime } from '../../../helpers/chime-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let sink: WebhookSink;
const servers: TestServer[] = [];
const dirs: string[] = [];
let child: ChildProcess | null = null;

beforeAll(async () => {
  sink = await startWebhookSink();
});
afterAll(async () => {
  child?.kill('SIGKILL');
  for (const s of servers) await s.close().catch(() => {});
  await sink?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-instances-'));
  dirs.push(dir);
  return dir;
}

async function seedDue(databaseUrl: string, count: number) {
  // A testDatabaseUrl database: migrated already.
  const database = createDatabase(databaseUrl);
  const accountId = await seedAccount(database.db);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await seedReminder(database.db, { accountId, at: Date.now() - 1000, destinations: [{ url: sink.url }] })).id);
  await database.db.destroy();
  return ids;
}

const byReminder = () => {
  const out = new Map<string, string[]>();
  for (const r of sink.requests) {
    const list = out.get(r.json.reminder_id) ?? [];
    list.push(String(r.headers['webhook-id']));
    out.set(r.json.reminder_id, list);
  }
  return out;
};

describe('two instances on one database', () => {
  it('send each delivery once', async () => {
    sink.requests.length = 0;
    sink.reply({ status: 204 });
    const dir = tempDir();
    // The database the test servers of `dir` use (a SQLite file, or PostgreSQL in that project).
    const reminders = await seedDue(await testDatabaseUrl(dir), 400);
    for (let i = 0; i < 2; i++) {
      const server = await startTestServer({ dir });
      server.app.scheduler.setOptions({ batchSize: 25, pageSize: 25 });
      servers.push(server);
    }
    for (const s of servers) s.app.scheduler.wake();
    await sink.waitFor(400, 20_000);
    await sleep(500);
    const seen = byReminder();
    expect(seen.size).toBe(400);
    expect([...seen.values()].every((ids) => ids.length === 1)).toBe(true);
    expect(new Set(reminders)).toEqual(new Set(seen.keys()));
    for (const s of servers.splice(0)) await s.close();
  });
});

describe('an instance killed mid-send', () => {
  it('loses its leases: another instance sends the rest; only sends in flight at the kill arrive twice, with the same webhook-id', async () => {
    sink.requests.length = 0;
    // Slow answers: the killed instance has sends in flight and more queued in memory, all leased.
    sink.reply({ status: 204, delayMs: 3000 });
    const dir = tempDir();
    const databaseUrl = await testDatabaseUrl(dir);
    const reminders = await seedDue(databaseUrl, 100);

    // Chime as `npm start` runs it (the compiled server), in a process of its own to kill.
    const chime = startChime(dir, { DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', DELIVERY_LEASE_SECONDS: '2', PUBLIC_URL: 'http://127.0.0.1:1' });
    child = chime.child;
    await chime.url();

    await sink.waitFor(20, 20_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    child = null;
    // Every request that reached the receiver before the kill was in flight then (answers take 3 s).
    const inFlightAtKill = new Set(sink.requests.map((r) => r.json.reminder_id as string));
    expect(inFlightAtKill.size).toBeLessThan(100);

    sink.reply({ status: 204 });
    const survivor = await startTestServer({ dir, env: { DELIVERY_LEASE_SECONDS: '2' } });
    servers.push(survivor);
    // Done when every delivery is recorded as delivered and let go: nothing more will be sent then.
    const settled = async () => {
      const rows = await survivor.app.db.selectFrom('deliveries').select(['status', 'lease_owner']).execute();
      return rows.length === 100 && rows.every((r) => r.status === 'delivered' && r.lease_owner === null);
    };
    const deadline = Date.now() + 20_000;
    while (!(await settled()) && Date.now() < deadline) await sleep(50);
    expect(await settled()).toBe(true);

    const seen = byReminder();
    expect(new Set(seen.keys())).toEqual(new Set(reminders));
    for (const [reminderId, webhookIds] of seen) {
      if (webhookIds.length > 1) {
        expect(inFlightAtKill.has(reminderId), `${reminderId} sent twice without being in flight at the kill`).toBe(true);
        expect(new Set(webhookIds).size).toBe(1);
      }
    }
  });
});
