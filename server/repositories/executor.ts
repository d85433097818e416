import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';

/** Repository functions take the database or a transaction, so callers decide the boundaries. */
export type Executor = Kysely<Database> | Transaction<Database>;
