/**
 * SQLite's WAL checkpoints from a worker thread (`server/db/backgroundCheckpoints.ts`): the server's
 * connection no longer copies the log back inside a commit, the worker does, and what it does is
 * not taken for another process's commit (`committedElsewhere`, which would empty every cache).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { FALLBACK_CHECKPOINT_PAGES } from '../../server/db/backgroundCheckpoints';
import { openDatabase } from '../../server/db/database';
import { prepared } from '../../server/db/prepared';
import { type Steps, ask, stepsRunner } from '../../server/db/steps';

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

  it('holds the steps’ writes while it copies the last pages of a grown log, and the log starts over', async () => {
    const file = path.join(dir, 'posts.db');
    const db = openDatabase(`sqlite:${file}`, { backgroundCheckpoints: { everyMs: 5, quietAfterPages: 20 } });
    // The log's header counts the times it started over (the checkpoint sequence, bytes 12-15).
    const restarts = () => readFileSync(`${file}-wal`).readUInt32BE(12);
    try {
      await sql`create table notes (id integer primary key, body text)`.execute(db.kysely);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of this test only
      const addNote = prepared((q, v: { body: string }) => (q as Kysely<any>).insertInto('notes').values(v));
      const steps = stepsRunner(db.kysely, db.now!);
      let ranWhileHeld = 0;
      function* noteSteps(): Steps<void> {
        if (db.checkpoints!.hold) ranWhileHeld += 1;
        yield* ask(addNote, { body: 'x'.repeat(3000) });
      }
      const before = restarts();
      // A stream with no pause: ten writers, each asking again as soon as it is answered. Counted,
      // not timed: it ends once writes were held (or after far more pages than the threshold).
      let written = 0;
      const writer = async () => {
        while (db.checkpoints!.holds < 2 && written < 50_000) {
          await steps(noteSteps);
          written += 1;
        }
      };
      await Promise.all(Array.from({ length: 10 }, writer));
      expect(db.checkpoints!.holds).toBeGreaterThanOrEqual(2);
      expect(ranWhileHeld).toBe(0);
      expect(restarts()).toBeGreaterThan(before);
      const { rows } = await sql<{ n: number }>`select count(*) as n from notes`.execute(db.kysely);
      expect(rows[0].n).toBe(written);
    } finally {
      await db.close();
    }
  });

  it('closing waits for the worker to close its connection, with nothing else keeping the process up', () => {
    const database = path.resolve(import.meta.dirname, '../../server/db/database.ts');
    const script = `
      import { openDatabase } from ${JSON.stringify(database)};
      const db = openDatabase(${JSON.stringify(`sqlite:${path.join(dir, 'posts.db')}`)}, { backgroundCheckpoints: true });
      await db.close();
      console.log('closed');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    // Before: the unreferenced worker let the process end inside `close` (exit code 13, an unsettled await).
    expect({ status: run.status, out: run.stdout.trim() }).toEqual({ status: 0, out: 'closed' });
  });
});
