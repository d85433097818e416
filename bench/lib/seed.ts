import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';

/**
 * Fills a migrated database with `count` reminders spread over `accounts` filler accounts, with raw
 * prepared statements in one transaction (Kysely would spend minutes building a million queries).
 * `dueAtMs` puts every reminder's next fire far in the future unless given.
 */
export function seedReminders(file: string, count: number, options: { accounts?: number; nextFireMs?: (i: number) => number; destinationUrl?: string } = {}) {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const accounts = options.accounts ?? 1000;
  const now = new Date().toISOString();
  const insertAccount = db.prepare(
    'insert into accounts (id, email, email_normalized, username, timezone, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertReminder = db.prepare(
    `insert into reminders (id, account_id, message, remind_at_utc, timezone, recurrence_type, is_paused, snoozed_at_utc, next_fire_utc, next_occurrence_utc, created_at, updated_at)
     values (?, ?, ?, ?, 'UTC', ?, 0, null, ?, ?, ?, ?)`,
  );
  const insertDestination = db.prepare(
    `insert into destinations (id, reminder_id, type, metadata, secret, position, created_at) values (?, ?, 'webhook', ?, ?, 0, ?)`,
  );
  const accountIds: string[] = [];
  const far = Date.now() + 365 * 86_400_000;
  const fill = db.transaction(() => {
    for (let a = 0; a < accounts; a++) {
      const id = randomUUID();
      accountIds.push(id);
      insertAccount.run(id, `filler${a}@example.com`, `filler${a}@example.com`, `filler${a}`, 'UTC', now, now);
    }
    const metadata = JSON.stringify({ url: options.destinationUrl ?? 'https://example.com/hook', platform: 'generic' });
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      const fire = new Date(options.nextFireMs ? options.nextFireMs(i) : far + (i % 86_400) * 1000).toISOString();
      insertReminder.run(id, accountIds[i % accounts], `Reminder ${i}`, fire, i % 3 === 0 ? 'DAILY' : 'ONCE', fire, fire, now, now);
      if (options.destinationUrl) insertDestination.run(randomUUID(), id, metadata, 'whsec_' + Buffer.alloc(32, 7).toString('base64'), now);
    }
  });
  fill();
  db.close();
  return accountIds;
}
