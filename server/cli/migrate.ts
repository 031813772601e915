/** `npm run migrate`: brings the configured database up to date. */
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';

const config = loadConfig();
const db = openDatabase(config.databaseUrl);
try {
  const applied = await migrateToLatest(db.kysely);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
} finally {
  await db.close();
}
