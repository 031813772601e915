/**
 * SQLite's WAL checkpoints from a worker thread (`server/db/backgroundCheckpoints.ts`): the server's
 * connection no longer copies the log back inside a commit, the worker does, and what it does is
 * not taken for another process's commit (`committedElsewhere`, which would empty every cache).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { FALLBACK_CHECKPOINT_PAGES } from '../../server/db/backgroundCheckpoints';
import { openDatabase } from '../../server/db/database';

describe('SQLite checkpoints in the background', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'posts-checkpoints-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const pragma = async (db: ReturnType<typeof openDatabase>, name: string) =>
    Object.values((await sql.raw(`PRAGMA ${name}`).execute(db.kysely)).rows[0] as object)[0];

  it('a worker copies the log back; the server’s connection keeps only a far threshold, and sees no outside commit', async () => {
    const file = path.join(dir, 'posts.db');
    const db = openDatabase(`sqlite:${file}`, { backgroundCheckpoints: true });
    try {
      expect(await pragma(db, 'wal_autocheckpoint')).toBe(FALLBACK_CHECKPOINT_PAGES);
      expect(db.checkpoints!.checkpointed).toBe(0);
      db.committedElsewhere!();
      await sql`create table notes (id integer primary key, body text)`.execute(db.kysely);
      for (let i = 0; i < 200; i++)
        await db.kysely
          .transaction()
          .execute((trx) => sql`insert into notes (body) values (${'x'.repeat(2000)})`.execute(trx));
      await expect.poll(() => db.checkpoints!.checkpointed, { timeout: 30_000 }).toBeGreaterThan(0);
      // Its own commits and the worker's checkpoints are not another process's writes.
      expect(db.committedElsewhere!()).toBe(false);
    } finally {
      await db.close();
    }
    const again = openDatabase(`sqlite:${file}`);
    try {
      expect(await pragma(again, 'wal_autocheckpoint')).toBe(1000);
      expect(again.checkpoints).toBeUndefined();
      const { rows } = await sql<{ n: number }>`select count(*) as n from notes`.execute(again.kysely);
      expect(rows[0].n).toBe(200);
    } finally {
      await again.close();
    }
  });
});
