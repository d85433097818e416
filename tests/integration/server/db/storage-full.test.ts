// Runs on SQLite only: the disk under the SQLite file fills up (vitest.config.ts).
/**
 * The disk under the database fills up (docs/operations.md "Data and backups"): writes answer 507 STORAGE_FULL
 * instead of a 500, reads go on, /healthz says why it is degraded, and a reminder that falls due
 * meanwhile is delivered once, at the latest when there is room again.
 *
 * Two ways to a real SQLITE_FULL: max_page_count on the server's own connection (a statement fails
 * and its transaction stays open), and a small tmpfs that really runs out of space (the commit
 * fails and SQLite rolls the transaction back itself). The second needs `mount`, which root has on
 * the machines CI runs on.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillTheDisk, makeRoom } from '../../../helpers/full-disk.ts';
import { createDueReminder, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { onPostgres } from '../../../helpers/test-database.ts';
import { startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';

let server: TestServer;
let sink: WebhookSink;

beforeAll(async () => {
  if (onPostgres) throw new Error('SQLite only: run this file in the server project');
  sink = await startWebhookSink();
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

describe('a full disk', () => {
  it('answers 507 STORAGE_FULL, keeps reading, says so on /healthz, and delivers what fell due once there is room', async () => {
    const user = await signUp(server.url, { timezone: 'UTC' });
    const due = new Date(Date.now() + 2500);
    await createDueReminder(user.api, due, `${sink.url}/hook`, 'Due while the disk is full');

    try {
      const full = await fillTheDisk(server.app.db, user.api, '2031-01-01');
      expect(full.body).toEqual({ error: 'The server has run out of storage space, so nothing was saved. Please tell its administrator.', code: 'STORAGE_FULL' });

      // Reads work, and the operator learns why writes fail.
      const list = await user.api.get('/api/reminders');
      expect(list.status).toBe(200);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'degraded', reason: 'The database storage is full: writes fail until there is room' });

      // The reminder falls due meanwhile (or fell due while the disk filled up).
      await new Promise((r) => setTimeout(r, Math.max(0, due.getTime() - Date.now()) + 1000));
    } finally {
      await makeRoom(server.app.db);
    }
    const [delivered] = await sink.waitFor(1, 10_000);
    expect(delivered!.json.message).toBe('Due while the disk is full');
    const after = await user.api.post('/api/reminders', { date: '2031-01-01', time: '09:00', message: 'room again', destinations: [] });
    expect(after.status).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.requests).toHaveLength(1);
  }, 30_000);
});

/** Mounts a tmpfs of `sizeMb` on a new folder; null where this user may not mount. */
function smallDisk(sizeMb: number): string | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

const disk = process.getuid?.() === 0 ? smallDisk(2) : null;

describe.skipIf(disk === null)('a disk that really runs out of space', () => {
  let onDisk: TestServer;
  beforeAll(async () => {
    onDisk = await startTestServer({ databaseUrl: path.join(disk!, 'chime.db') });
  });
  afterAll(async () => {
    await onDisk?.close();
    execFileSync('umount', [disk!]);
    rmSync(disk!, { recursive: true, force: true });
  });

  it('answers 507 STORAGE_FULL, not the rollback that SQLite already did, and works again once there is room', async () => {
    const user = await signUp(onDisk.url, { timezone: 'UTC' });
    const statuses: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const res = await user.api.post('/api/reminders', { date: '2031-01-01', time: '09:00', message: `filler ${i} ${'x'.repeat(1500)}`, destinations: [] });
      statuses.push(res.status);
      if (res.status !== 201) {
        expect(res.status).toBe(507);
        expect(res.body.code).toBe('STORAGE_FULL');
        break;
      }
    }
    expect(statuses.at(-1)).toBe(507);
    expect((await user.api.get('/api/reminders')).status).toBe(200);
    expect(await (await fetch(`${onDisk.url}/healthz`)).json()).toMatchObject({ status: 'degraded' });

    // The operator makes room: writes work again, on the same running server.
    execFileSync('mount', ['-o', 'remount,size=16m', disk!]);
    const after = await user.api.post('/api/reminders', { date: '2031-01-01', time: '09:00', message: 'room again', destinations: [] });
    expect(after.status).toBe(201);
  }, 60_000);
});
