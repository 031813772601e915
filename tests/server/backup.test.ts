/**
 * `npm run backup` taken while the app writes, `npm run restore` into a fresh folder (and database),
 * the app started there: every write acknowledged before the backup began is found, with its image,
 * and the counters match their rows. With TEST_S3=1 again with the media in the S3 bucket (the
 * backup copies the objects; the restore here puts them on the local disk).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { Post } from '../../lib/types';
import { createPost, walkPages } from './factories';
import { type SignedInUser, type TestApp, createTestApp, freshDatabaseUrl, signIn } from './helpers';
import { s3GatewayEnv } from './s3Gateway';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** Runs one of the commands as `npm run` would, in its own process; its exit code and output. */
async function command(script: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'server/cli', script), ...args],
      {
        cwd: root,
        // The app's own secret file is what a restore must bring back: no JWT_SECRET from the environment.
        env: { ...process.env, LOG_LEVEL: 'silent', JWT_SECRET: '', ...env },
      },
    );
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

type Write =
  | { kind: 'post'; post: Post; by: SignedInUser }
  | { kind: 'comment'; postId: string; commentId: string; by: SignedInUser }
  | { kind: 'like'; postId: string; by: SignedInUser };

const gatewayEnv = s3GatewayEnv();
const storages: [string, Record<string, string>][] = [['local disk', {}]];
if (gatewayEnv) storages.push(['S3', gatewayEnv]);

describe.each(storages)('backup and restore, media on the %s', (_storage, storageEnv) => {
  let t: TestApp;
  let restored: TestApp | undefined;
  const scratch = mkdtempSync(path.join(tmpdir(), 'posts-backup-test-'));
  const appEnv = () => ({ DATA_DIR: t.dataDir, DATABASE_URL: t.config.databaseUrl, ...storageEnv });
  beforeAll(async () => {
    t = await createTestApp({ JWT_SECRET: '', ...storageEnv });
  });
  afterAll(async () => {
    await restored?.close();
    await t?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('finds every write acknowledged before the backup began after a restore, with its media, counters clean', async () => {
    const people = await Promise.all(Array.from({ length: 4 }, () => signIn(t.app)));
    const acknowledged: Write[] = [];
    let backupBegan = false;
    let stop = false;
    let firstWritesDone = () => {};
    const firstWrites = new Promise<void>((resolve) => (firstWritesDone = resolve));
    const ack = (write: Write) => {
      if (backupBegan) return;
      acknowledged.push(write);
      if (acknowledged.filter((w) => w.kind === 'like').length >= 3) firstWritesDone();
    };
    /** One author posts with an image; their partner comments on it and likes it. Again and again. */
    const writer = async (author: SignedInUser, partner: SignedInUser) => {
      for (let round = 0; round < 25 && !stop; round += 1) {
        const post = await createPost(t.app, author, { message: `Burst ${round}` });
        ack({ kind: 'post', post, by: author });
        const comment = await t.app.inject({
          method: 'POST',
          url: `/api/posts/${post._id}/comments`,
          headers: partner.headers,
          payload: { message: `Reply ${round}` },
        });
        expect(comment.statusCode).toBe(201);
        ack({ kind: 'comment', postId: post._id, commentId: comment.json().commentId, by: partner });
        const like = await t.app.inject({
          method: 'PATCH',
          url: `/api/posts/${post._id}/like`,
          headers: partner.headers,
        });
        expect(like.statusCode).toBe(200);
        ack({ kind: 'like', postId: post._id, by: partner });
      }
    };
    const writers = [writer(people[0], people[1]), writer(people[1], people[2]), writer(people[2], people[3])];
    // Some writes land before the backup begins; the burst goes on while it runs.
    await firstWrites;
    const archive = path.join(scratch, 'posts.tar.gz');
    backupBegan = true;
    const backup = await command('backup.ts', ['--out', archive], appEnv());
    stop = true;
    await Promise.all(writers);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain('Backed up the');

    // Into a fresh folder and database, in the local disk (the S3 run's objects come back as files).
    const restoredDir = path.join(scratch, 'restored');
    const database = await freshDatabaseUrl(mkdtempSync(path.join(scratch, 'db-')));
    const restoreEnv = { DATA_DIR: restoredDir, DATABASE_URL: database.url };
    const restore = await command('restore.ts', [archive], restoreEnv);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    restored = await createTestApp({ JWT_SECRET: '' }, { at: { dataDir: restoredDir, database } });

    const mediaKey = (url: string) => url.slice(t.config.mediaBaseUrl.length + 1);
    const commentsOf = new Map<string, string[]>();
    for (const write of acknowledged) {
      // The people's own session cookies: sessions and the generated secret came back too.
      if (write.kind === 'post') {
        const read = await restored.app.inject({
          method: 'GET',
          url: `/api/posts/${write.post._id}`,
          headers: write.by.headers,
        });
        expect(read.statusCode).toBe(200);
        expect(read.json().message).toBe(write.post.message);
        const file = await restored.app.inject({ method: 'GET', url: `/media/${mediaKey(write.post.image)}` });
        expect(file.statusCode).toBe(200);
        expect(file.rawPayload.length).toBeGreaterThan(0);
      } else if (write.kind === 'comment') {
        if (!commentsOf.has(write.postId)) {
          const { items } = await walkPages<{ commentId: string }>(
            restored.app,
            write.by,
            `/api/posts/${write.postId}/comments`,
          );
          commentsOf.set(
            write.postId,
            items.map((c) => c.commentId),
          );
        }
        expect(commentsOf.get(write.postId)).toContain(write.commentId);
      } else {
        const read = await restored.app.inject({
          method: 'GET',
          url: `/api/posts/${write.postId}`,
          headers: write.by.headers,
        });
        expect(read.json().myReaction).toBe('like');
      }
    }
    expect(acknowledged.filter((w) => w.kind === 'post').length).toBeGreaterThanOrEqual(3);

    const counters = await command('checkCounters.ts', [], restoreEnv);
    expect(counters.stdout).toContain('Every counter matches its rows.');
    expect(counters.code).toBe(0);

    // Never over what is there: a second restore into the same folder is refused, nothing changes.
    const again = await command('restore.ts', [archive], restoreEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${restoredDir} is not empty: restore only into an empty DATA_DIR`);
    // Nor over an archive of the same name.
    const over = await command('backup.ts', ['--out', archive], appEnv());
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('already exists');
  });

  it('refuses a backup of a newer schema than the code knows, before writing anything', async () => {
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('999_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(
      t.db.kysely,
    );
    const archive = path.join(scratch, 'future.tar.gz');
    try {
      expect((await command('backup.ts', ['--out', archive], appEnv())).code).toBe(0);
    } finally {
      await sql`DELETE FROM kysely_migration WHERE name = '999_from_the_future'`.execute(t.db.kysely);
    }
    const target = path.join(scratch, 'future');
    const database = await freshDatabaseUrl(mkdtempSync(path.join(scratch, 'db-')));
    try {
      const restore = await command('restore.ts', [archive], { DATA_DIR: target, DATABASE_URL: database.url });
      expect(restore.code).toBe(1);
      expect(restore.stderr).toContain("This backup's schema (999_from_the_future) is newer than this code knows");
      expect(readdirSync(scratch)).not.toContain('future');
    } finally {
      await database.drop();
    }
  });
});
