import { PostgresAdapter } from 'kysely';
import type { Executor } from './executor.ts';

/**
 * Multi-row statements come in a few fixed shapes only, so the prepared-statement cache keeps
 * hitting instead of compiling (and holding on to) one statement per batch size:
 *  - rows to insert: chunks whose sizes are powers of two up to `max`;
 *  - ids for `in (...)`: lists padded to a power of two by repeating the last id (harmless in IN).
 */
export function insertChunks<T>(items: T[], max = 256): T[][] {
  const out: T[][] = [];
  let i = 0;
  while (i < items.length) {
    let size = max;
    while (size > items.length - i) size >>= 1;
    out.push(items.slice(i, i + size));
    i += size;
  }
  return out;
}

export function idLists(ids: string[], max = 512): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += max) {
    const part = ids.slice(i, i + max);
    let size = 1;
    while (size < part.length) size <<= 1;
    while (part.length < size) part.push(part[part.length - 1]!);
    out.push(part);
  }
  return out;
}

/** PostgreSQL takes row locks: concurrent claimers skip each other's rows instead of waiting. */
export const takesRowLocks = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;
