/**
 * A fresh, migrated database without the app around it (SQLite, or PostgreSQL when the suite runs
 * there): for tests of queries and checks that need rows, not requests. Cheap enough for mutation
 * runs, which set each test file up again for every mutant (vitest.mutation.config.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Db, openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { freshDatabaseUrl } from './helpers';

export async function createTestDatabase(): Promise<Db & { drop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'posts-db-'));
  const database = await freshDatabaseUrl(dataDir);
  const db = openDatabase(database.url);
  await migrateToLatest(db.kysely);
  return Object.assign(db, {
    async drop() {
      await db.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
