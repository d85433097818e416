import { randomBytes, randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { createDatabase } from '../server/db/connection.ts';
import { migrateToLatest } from '../server/db/migrate.ts';

export interface SchedulerSeed {
  /** Reminders that never fire during the benchmark (next fire a year or more away). */
  filler: number;
  /** Due instant of each reminder that will fire; each gets one webhook destination to `url`. */
  dueAtMs: number[];
  url: string;
  /** When given, due reminder i posts to urls[i % urls.length] instead of `url` (several hosts). */
  urls?: string[];
  accounts?: number;
}

/**
 * Migrates `file` and fills it with raw prepared statements in one transaction (Kysely would take
 * minutes to build a million statements). Returns the ids of the due reminders by index.
 */
export async function seedSchedulerDatabase(file: string, seed: SchedulerSeed): Promise<string[]> {
  const { db } = createDatabase(file);
  await migrateToLatest(db);
  await db.destroy();

  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  const now = new Date().toISOString();
  const insertAccount = sqlite.prepare('insert into accounts (id, email, email_normalized, username, timezone, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)');
  const insertReminder = sqlite.prepare(
    `insert into reminders (id, account_id, message, local_date, local_time, remind_at_utc, timezone, recurrence_type, is_paused, snoozed_at_utc, next_fire_utc, next_occurrence_utc, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, 'UTC', ?, 0, null, ?, ?, ?, ?)`,
  );
  const insertDestination = sqlite.prepare(`insert into destinations (id, reminder_id, type, metadata, secret, position, created_at) values (?, ?, 'webhook', ?, ?, 0, ?)`);
  const accounts: string[] = [];
  const dueIds: string[] = [];
  const far = Date.now() + 400 * 86_400_000;
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const metadataOf = (seed.urls ?? [seed.url]).map((url) => JSON.stringify({ url, platform: 'generic' }));
  sqlite.transaction(() => {
    const n = seed.accounts ?? 1000;
    for (let a = 0; a < n; a++) {
      const id = randomUUID();
      accounts.push(id);
      insertAccount.run(id, `bench${a}@example.com`, `bench${a}@example.com`, `bench${a}`, 'UTC', now, now);
    }
    for (let i = 0; i < seed.filler; i++) {
      const fire = new Date(far + (i % 86_400) * 1000).toISOString();
      insertReminder.run(randomUUID(), accounts[i % n], `Filler ${i}`, ...utcWallClock(fire), fire, i % 3 === 0 ? 'DAILY' : 'ONCE', fire, fire, now, now);
    }
    seed.dueAtMs.forEach((ms, i) => {
      const id = randomUUID();
      const fire = new Date(ms).toISOString();
      // ONCE and DAILY mixed: recurring ones are advanced by the claim, ONCE ones completed.
      insertReminder.run(id, accounts[i % n], `Due ${i}`, ...utcWallClock(fire), fire, i % 2 === 0 ? 'ONCE' : 'DAILY', fire, fire, now, now);
      insertDestination.run(randomUUID(), id, metadataOf[i % metadataOf.length], secret, now);
      dueIds.push(id);
    });
  })();
  sqlite.close();
  return dueIds;
}


/** The local date and time a UTC reminder stores for an instant (seeds are in UTC). */
const utcWallClock = (iso: string): [string, string] => [iso.slice(0, 10), iso.slice(11, 19)];

/** Moves every reminder due at `fromMs` to `toMs` (seed far ahead, then aim once seeding is done). */
export function retime(file: string, fromMs: number, toMs: number): number {
  const sqlite = new SQLite(file);
  sqlite.pragma('busy_timeout = 5000');
  const from = new Date(fromMs).toISOString();
  const to = new Date(toMs).toISOString();
  const res = sqlite
    .prepare('update reminders set local_date = ?, local_time = ?, remind_at_utc = ?, next_fire_utc = ?, next_occurrence_utc = ? where next_fire_utc = ?')
    .run(...utcWallClock(to), to, to, to, from);
  sqlite.close();
  return res.changes;
}
