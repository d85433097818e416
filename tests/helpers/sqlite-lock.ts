/**
 * Another process holding SQLite's write lock for a while, as a backup or the sqlite3 shell does
 * (docs/operations.md "Data and backups"): a second real connection on the same file in BEGIN IMMEDIATE.
 */
import SQLite from 'better-sqlite3';

/** Takes the write lock on `file` now and gives it back after `ms`; resolves once it is given back. */
export function holdWriteLock(file: string, ms: number): Promise<void> {
  const other = new SQLite(file);
  other.exec('BEGIN IMMEDIATE');
  return new Promise((resolve) =>
    setTimeout(() => {
      other.exec('COMMIT');
      other.close();
      resolve();
    }, ms),
  );
}
