import { sql } from 'kysely';
import { commentsRepository } from '../../server/comments/repository';
import { prepared } from '../../server/db/prepared';
import { postsRepository } from '../../server/posts/repository';
import { usersRepository } from '../../server/users/repository';
import { userRow } from './factories';
import { type TestApp, createTestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.db.kysely
    .insertInto('users')
    .values(
      ['ann', 'bob', 'cy', 'dee'].map((name, i) =>
        userRow(name, { id: `00000000-0000-7000-8000-00000000000${i}`, description: name === 'bob' ? 'kept' : '' }),
      ),
    )
    .execute();
});
afterAll(async () => {
  await t.close();
});

// A constant in the builder ('kept') stays where it is; the values change per call.
const users = prepared((db, v: { after: string | null; names: string[]; limit: number }) => {
  let query = db
    .selectFrom('users')
    .select('username')
    .where((eb) => eb.or([eb('username', 'in', v.names), eb('description', '=', 'kept')]));
  if (v.after) query = query.where('username', '>', v.after);
  return query.orderBy('username').limit(v.limit);
});
const names = (rows: { username: string }[]) => rows.map((r) => r.username);

describe('prepared queries', () => {
  it('run each shape with new values, as the builder would', async () => {
    const k = t.db.kysely;
    expect(names(await users(k, { after: null, names: ['ann', 'cy'], limit: 10 }))).toEqual(['ann', 'bob', 'cy']);
    expect(names(await users(k, { after: null, names: ['dee', 'ann'], limit: 2 }))).toEqual(['ann', 'bob']);
    expect(names(await users(k, { after: 'ann', names: ['ann', 'cy'], limit: 10 }))).toEqual(['bob', 'cy']);
    expect(names(await users(k, { after: null, names: ['dee'], limit: 10 }))).toEqual(['bob', 'dee']);
    expect(names(await users(k, { after: 'bob', names: ['ann', 'cy', 'dee'], limit: 1 }))).toEqual(['cy']);
    // Inside a transaction too.
    await k.transaction().execute(async (trx) => {
      expect(names(await users(trx, { after: null, names: ['cy'], limit: 10 }))).toEqual(['bob', 'cy']);
    });
  });

  it('refuse a builder that computes with a value instead of passing it on', async () => {
    const computed = prepared((db, v: { name: string }) =>
      db.selectFrom('users').select('username').where('username', '=', `${v.name}!`),
    );
    await expect(computed(t.db.kysely, { name: 'ann' })).rejects.toThrow('used as more than a value');
  });
});

/**
 * Counts re-prepared statements: better-sqlite3 builds a statement's row constructor with
 * `Function` when SQLite (re-)prepares it, and at no other time.
 */
async function rowConstructorsBuilt(run: () => Promise<unknown>): Promise<number> {
  const original = globalThis.Function;
  let built = 0;
  globalThis.Function = Object.assign(
    function counting(...args: string[]) {
      built += 1;
      return original(...args);
    },
    { prototype: original.prototype },
  ) as FunctionConstructor;
  try {
    await run();
  } finally {
    globalThis.Function = original;
  }
  return built;
}

describe.runIf(process.env.TEST_DB === 'sqlite')('SQLite statements run again with new values', () => {
  const id = (suffix: string) => `00000000-0000-7000-8000-0000000000${suffix}`;
  const viewers = [id('00'), id('01'), id('02')];
  const postIds = [id('a1'), id('a2'), id('a3'), id('a4')];
  const cursors = [id('f1'), id('f2'), id('f3')];

  beforeAll(async () => {
    const now = new Date().toISOString();
    const k = t.db.kysely;
    await k
      .insertInto('posts')
      .values(
        postIds.map((postId) => ({
          id: postId,
          creator_id: viewers[0],
          message: 'm',
          image: '/i.png',
          media_id: null,
          tags: '["tag"]',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await k
      .insertInto('post_tags')
      .values(postIds.map((postId) => ({ post_id: postId, tag: 'tag' })))
      .execute();
    await k
      .insertInto('post_reactions')
      .values({ post_id: postIds[0], user_id: viewers[1], kind: 'like', created_at: now })
      .execute();
    await k
      .insertInto('comments')
      .values(
        ['c1', 'c2', 'c3'].map((c) => ({
          id: id(c),
          post_id: postIds[0],
          user_id: viewers[2],
          message: 'c',
          created_at: now,
        })),
      )
      .execute();
    // Everyone follows everyone else: each has followers and followees.
    const pairs = viewers.flatMap((follower) =>
      viewers.filter((followee) => followee !== follower).map((followee) => ({ follower, followee })),
    );
    await k
      .insertInto('follows')
      .values(
        pairs.map((pair, i) => ({
          id: id(`e${i}`),
          follower_id: pair.follower,
          followee_id: pair.followee,
          created_at: now,
        })),
      )
      .execute();
  });

  /** Runs `query` once to prepare it, then with new values twice; how many runs re-prepared it. */
  async function reprepares(query: (i: number) => Promise<unknown[] | unknown>): Promise<number> {
    await query(0);
    return rowConstructorsBuilt(async () => {
      for (let i = 1; i < 3; i += 1) await query(i);
    });
  }

  it('are re-prepared when a bound value sits in a LEFT JOIN (what the counting sees)', async () => {
    const leftJoined = prepared((db, v: { viewerId: string }) =>
      db
        .selectFrom('users')
        .leftJoin('post_reactions as mine', (join) =>
          join.onRef('mine.post_id', '=', 'users.id').on('mine.user_id', '=', v.viewerId),
        )
        .select(['users.username', 'mine.kind']),
    );
    expect(await reprepares((i) => leftJoined(t.db.kysely, { viewerId: viewers[i] }))).toBe(2);
  });

  it('are not re-prepared for the lists (server/db/stablePlans.ts)', async () => {
    const k = t.db.kysely;
    const posts = postsRepository(k);
    const comments = commentsRepository(k);
    const people = usersRepository(k);
    const lists: [string, (i: number) => Promise<unknown>][] = [
      ['everyone', (i) => posts.allPosts(viewers[i], cursors[i], 13)],
      ['by ids', (i) => posts.postsByIds(viewers[i], [postIds[i + 1], postIds[i]])],
      ['profile', (i) => posts.postsByCreator(viewers[i], 'ann', cursors[i], 13)],
      ['tags', (i) => posts.taggedPosts(viewers[i], ['tag', 'other'], cursors[i], 13)],
      ['one tag', (i) => posts.taggedPosts(viewers[i], ['tag'], cursors[i], 13)],
      ['one post', (i) => posts.findPost(viewers[i], postIds[i])],
      // What a like or a comment checks first, and the comment a new one answers (issue 31).
      ['a visible post', (i) => posts.findVisiblePostOwner(viewers[i], postIds[i])],
      ['one comment', (i) => comments.findComment(viewers[i], id(`c${i + 1}`))],
      ['comments', (i) => comments.listComments(viewers[i], postIds[0], cursors[i], 13)],
      ['followers', (i) => people.listFollows(viewers[i], viewers[i], 'followers', cursors[i], 13)],
      ['following', (i) => people.listFollows(viewers[i], viewers[i], 'following', cursors[i], 13)],
    ];
    for (const [name, list] of lists) {
      // Rows to build: better-sqlite3 makes the row constructor for the first row.
      const found = await list(0);
      expect(Array.isArray(found) ? found.length : Number(found !== undefined)).toBeGreaterThan(0);
      expect({ name, reprepared: await reprepares(list) }).toEqual({ name, reprepared: 0 });
    }
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('PostgreSQL statements (server/db/namedStatements.ts)', () => {
  it('run prepared() shapes as named statements, parsed once per connection, and leave ad-hoc ones unnamed', async () => {
    await t.db.kysely.transaction().execute(async (trx) => {
      // One connection for the transaction: its session's prepared statements are what it parsed.
      const first = names(await users(trx, { after: 'ann', names: ['cy'], limit: 5 }));
      const again = names(await users(trx, { after: 'bob', names: ['dee'], limit: 5 }));
      await trx.selectFrom('users').select('username').where('username', '=', 'ann').execute();
      expect([first, again]).toEqual([['bob', 'cy'], ['dee']]);
      const { rows } = await sql<{ statement: string; calls: string }>`
        select statement, generic_plans + custom_plans as calls from pg_prepared_statements`.execute(trx);
      const ours = rows.filter((row) => /"username" in \(\$1\).*"username" > \$/.test(row.statement));
      expect(ours.map((row) => Number(row.calls))).toEqual([2]);
      expect(rows.filter((row) => row.statement.includes('"username" = $'))).toEqual([]);
    });
  });
});
