/**
 * `npm run check:counters [-- --fix]`: compares every counter (followers, following, posts,
 * likes, dislikes, comments) with its rows on the configured database. Exits 1 when one differs;
 * `--fix` sets them to the rows' count.
 */
import { loadConfig } from '../config';
import { findCounterDrift, repairCounters } from '../db/counters';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';

const fix = process.argv.includes('--fix');
const config = loadConfig();
const db = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(db.kysely);
  const drift = await findCounterDrift(db.kysely);
  for (const d of drift) console.log(`${d.table} ${d.id} ${d.column}: stored ${d.stored}, rows ${d.actual}`);
  if (drift.length === 0) console.log('Every counter matches its rows.');
  else if (fix) console.log(`Fixed ${await repairCounters(db.kysely)} counters.`);
  else {
    console.log(`${drift.length} counters differ from their rows (npm run check:counters -- --fix sets them).`);
    process.exitCode = 1;
  }
} finally {
  await db.close();
}
