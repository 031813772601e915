/** Counters stay equal to their rows when the same delete arrives many times at once; `check:counters` finds and fixes drift. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { findCounterDrift, repairCounters } from '../../server/db/counters';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
let ann: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t.app);
});
afterAll(() => t.close());

const addComment = async (postId: string, message: string) =>
  (
    await t.app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/comments`,
      headers: ann.headers,
      payload: { message },
    })
  ).json().commentId as string;
const me = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: ann.headers })).json();
const times = <T>(n: number, make: () => Promise<T>) => Promise.all(Array.from({ length: n }, make));

describe('racing deletes', () => {
  it('the same post deleted 20 times at once counts once', async () => {
    const before = (await me()).postsCount;
    const post = await createPost(t.app, ann);
    for (const m of ['one', 'two', 'three']) await addComment(post._id, m);
    const answers = await times(20, () =>
      t.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}/manage`, headers: ann.headers }),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200 && s !== 404)).toEqual([]);
    expect((await me()).postsCount).toBe(before);
    expect(await findCounterDrift(t.db.kysely)).toEqual([]);
  });

  it('the same comment deleted 20 times at once counts once', async () => {
    const post = await createPost(t.app, ann);
    const ids = [
      await addComment(post._id, 'one'),
      await addComment(post._id, 'two'),
      await addComment(post._id, 'three'),
    ];
    const answers = await times(20, () =>
      t.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}/comments/${ids[0]}`, headers: ann.headers }),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode !== 200 && a.statusCode !== 404)).toEqual([]);
    const read = await t.app.inject({ method: 'GET', url: `/api/posts/${post._id}`, headers: ann.headers });
    expect(read.json().commentsCount).toBe(2);
    expect(await findCounterDrift(t.db.kysely)).toEqual([]);
  });

  it('a comment racing its post deletion is a 201 or a 404, never a 500', async () => {
    const post = await createPost(t.app, ann);
    const [deleted, ...comments] = await Promise.all([
      t.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}/manage`, headers: ann.headers }),
      ...Array.from({ length: 10 }, () =>
        t.app.inject({
          method: 'POST',
          url: `/api/posts/${post._id}/comments`,
          headers: ann.headers,
          payload: { message: 'Late' },
        }),
      ),
    ]);
    expect(deleted.statusCode).toBe(200);
    for (const c of comments) expect([201, 404]).toContain(c.statusCode);
    expect(await findCounterDrift(t.db.kysely)).toEqual([]);
  });
});

describe('racing mutual follows', () => {
  // Two people following (or unfollowing) each other at the same moment each lock one user row and
  // then want the other's: on PostgreSQL one of them died with "deadlock detected" (a 500).
  it('pairs following and unfollowing each other at once all succeed, and the counters hold', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 16 }, async () => [await signIn(t.app), await signIn(t.app)] as const),
    );
    const both = (action: 'follow' | 'unfollow') =>
      Promise.all(
        pairs.flatMap(([a, b]) => [
          t.app.inject({ method: 'PATCH', url: `/api/users/${b.username}/${action}`, headers: a.headers }),
          t.app.inject({ method: 'PATCH', url: `/api/users/${a.username}/${action}`, headers: b.headers }),
        ]),
      );
    const profile = async (user: SignedInUser) =>
      (await t.app.inject({ method: 'GET', url: `/api/users/${user.username}`, headers: ann.headers })).json().user;
    for (let round = 0; round < 6; round += 1) {
      const following = round % 2 === 0;
      const answers = await both(following ? 'follow' : 'unfollow');
      expect(answers.filter((a) => a.statusCode !== 200).map((a) => a.body)).toEqual([]);
      expect(await findCounterDrift(t.db.kysely)).toEqual([]);
      const count = following ? 1 : 0;
      expect(await profile(pairs[0][0])).toMatchObject({ followersCount: count, followingCount: count });
    }
  });
});

describe('check:counters', () => {
  it('reports every counter that differs from its rows, and --fix sets it right', async () => {
    const post = await createPost(t.app, ann);
    await addComment(post._id, 'one');
    await sql`UPDATE posts SET comments_count = -10 WHERE id = ${post._id}`.execute(t.db.kysely);
    await sql`UPDATE users SET posts_count = -5 WHERE id = ${ann.id}`.execute(t.db.kysely);
    const drift = await findCounterDrift(t.db.kysely);
    expect(drift).toEqual(
      expect.arrayContaining([
        { table: 'posts', id: post._id, column: 'comments_count', stored: -10, actual: 1 },
        expect.objectContaining({ table: 'users', id: ann.id, column: 'posts_count', stored: -5 }),
      ]),
    );
    expect(drift).toHaveLength(2);

    // The command itself, on the same database.
    const run = (args: string[]) => {
      try {
        return {
          code: 0,
          out: execFileSync(process.execPath, ['--import', 'tsx', cli, ...args], { env, encoding: 'utf8' }),
        };
      } catch (error) {
        const e = error as { status: number; stdout: string };
        return { code: e.status, out: e.stdout };
      }
    };
    const cli = path.resolve(import.meta.dirname, '../../server/cli/checkCounters.ts');
    const env = { ...process.env, DATABASE_URL: t.config.databaseUrl, DATA_DIR: t.dataDir, LOG_LEVEL: 'silent' };
    const checked = run([]);
    expect(checked.code).toBe(1);
    expect(checked.out).toContain(`posts ${post._id} comments_count: stored -10, rows 1`);
    expect(run(['--fix']).out).toContain('Fixed 2 counters.');
    expect(run([])).toEqual({ code: 0, out: 'Every counter matches its rows.\n' });
    expect(await repairCounters(t.db.kysely)).toBe(0);
  });
});
