/**
 * The SQLite database holds every local actor's private keys and the password hashes: its file, its
 * write-ahead log and its shared memory are readable by the server's account only (issue 68, item
 * 36), on a new install and on one made before (0644 then).
 */
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/database';

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('the database file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'posts-mode-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is made 0600, and its write-ahead log and shared memory with it', async () => {
    const file = path.join(dir, 'new', 'posts.db');
    const db = openDatabase(`sqlite:${file}`);
    try {
      await sql`create table t (x integer)`.execute(db.kysely);
      await sql`insert into t values (1)`.execute(db.kysely);
      expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    } finally {
      await db.close();
    }
  });

  it('an existing install made readable by all is narrowed to 0600', async () => {
    const file = path.join(dir, 'old.db');
    writeFileSync(file, '');
    writeFileSync(`${file}-wal`, '');
    chmodSync(file, 0o644);
    chmodSync(`${file}-wal`, 0o644);
    const db = openDatabase(`sqlite:${file}`);
    try {
      expect([modeOf(file), modeOf(`${file}-wal`)]).toEqual([0o600, 0o600]);
    } finally {
      await db.close();
    }
  });
});
