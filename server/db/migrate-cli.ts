import { loadConfig, loadDotEnv } from '../config.ts';
import { createDatabase } from './connection.ts';
import { migrateToLatest } from './migrate.ts';

loadDotEnv();
const config = loadConfig();
const { db } = createDatabase(config.databaseUrl);
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await db.destroy();
}
