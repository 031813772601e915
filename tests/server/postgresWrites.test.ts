/**
 * PostgreSQL's writes no event tells of (`server/db/postgresWrites.ts`, migrations 019 and 030): every
 * table's writes NOTIFY with the writer's connection name, and the server's LISTEN makes its caches
 * forget what anyone else committed. The caches keep things for a minute, so only the signal makes
 * a change seen within the tests' waits. The notification comes after the commit, so a change is
 * awaited (`readUntil`), not expected at the very next request as on SQLite (outsideWrites.test.ts).
 */
import pg from 'pg';
import type { Post } from '../../lib/types';
import { instanceConnectionName, writtenElsewhere } from '../../server/db/postgresWrites';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, readUntil, signIn } from './helpers';

const LONG_CACHES = { SESSION_CACHE_MS: '60000', HOME_FEED_SYNC_MS: '60000', POST_CACHE_MS: '60000' };

describe('whose writes an instance counts', () => {
  it('anyone’s but its own, and on the bus not the other bus instances’', () => {
    const solo = instanceConnectionName({ id: 'host:1', onBus: false });
    const bus = instanceConnectionName({ id: 'host:1', onBus: true });
    const otherOnBus = instanceConnectionName({ id: 'host:2', onBus: true });
    expect(writtenElsewhere(solo, solo, false)).toBe(false);
    expect(writtenElsewhere('', solo, false)).toBe(true); // a tool's connection, unnamed
    expect(writtenElsewhere(otherOnBus, solo, false)).toBe(true);
    expect(writtenElsewhere(bus, bus, true)).toBe(false);
    expect(writtenElsewhere(otherOnBus, bus, true)).toBe(false);
    expect(writtenElsewhere(instanceConnectionName({ id: 'host:2', onBus: false }), bus, true)).toBe(true);
    expect(writtenElsewhere('psql', bus, true)).toBe(true);
  });

  it('names connections as PostgreSQL sends them back: 63 bytes of printable ASCII', () => {
    const name = instanceConnectionName({ id: `hôte-${'x'.repeat(80)}`, onBus: false });
    expect(name).toMatch(/^posts:h\?te-x+$/);
    expect(name).toHaveLength(63);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('PostgreSQL: commits made elsewhere', () => {
  let t: TestApp;
  let author: SignedInUser;
  let other: pg.Client;
  beforeAll(async () => {
    t = await createTestApp(LONG_CACHES);
    author = await signIn(t.app);
    other = new pg.Client({ connectionString: t.config.databaseUrl, application_name: 'a tool' });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await t?.close();
  });

  const get = async (url: string) => (await t.app.inject({ url, headers: author.headers })).json();

  it('gives every table of the schema the signal', async () => {
    const { rows } = await other.query<{ table: string; signalled: boolean }>(
      `select c.relname as table,
              exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'posts_write_signal'
                      and g.tgtype & 1 = 1) -- a row trigger (migration 030)
              and exists (select 1 from pg_trigger g where g.tgrelid = c.oid
                      and g.tgname = 'posts_write_signal_truncate') as signalled
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = current_schema() and c.relkind in ('r', 'p') and c.relname not like 'kysely_migration%'`,
    );
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((row) => !row.signalled).map((row) => row.table)).toEqual([]);
  });

  it('names the instance’s own writes as it does not count them', async () => {
    const listening = new pg.Client({ connectionString: t.config.databaseUrl });
    await listening.connect();
    try {
      const heard: string[] = [];
      listening.on('notification', (message) => heard.push(message.payload ?? ''));
      await listening.query('LISTEN posts_writes');
      await createPost(t.app, author);
      await readUntil(
        async () => heard.length,
        (count) => count > 0,
      );
      expect(new Set(heard)).toEqual(new Set([instanceConnectionName({ id: t.config.instanceId, onBus: false })]));
    } finally {
      await listening.end();
    }
  });

  it('signals a statement that changed rows, or a truncate, but not one that changed none', async () => {
    const listening = new pg.Client({ connectionString: t.config.databaseUrl });
    const connect = async (name: string) => {
      const client = new pg.Client({ connectionString: t.config.databaseUrl, application_name: name });
      await client.connect();
      return client;
    };
    const [idle, truncating] = [await connect('an idle worker'), await connect('a truncate')];
    await listening.connect();
    try {
      const heard: string[] = [];
      listening.on('notification', (message) => heard.push(message.payload ?? ''));
      await listening.query('LISTEN posts_writes');
      // A queue worker's poll that claims nothing, and a delete of nothing: each second on every instance.
      await idle.query(`update federation_queue set attempts = attempts + 1 where id = 'none'`);
      await idle.query(`delete from posts where id = 'none'`);
      await truncating.query('truncate push_subscriptions');
      await other.query(`update users set description = 'told' where id = $1`, [author.id]);
      // Notifications arrive in commit order: once the last is heard, the others would have been.
      await readUntil(
        async () => heard,
        (names) => names.includes('a tool'),
      );
      expect(heard).toEqual(['a truncate', 'a tool']);
    } finally {
      await Promise.all([listening.end(), idle.end(), truncating.end()]);
    }
  });

  it('a post edited by another connection shows', async () => {
    const post = await createPost(t.app, author, { message: 'before' });
    for (let i = 0; i < 3; i++) await get(`/api/posts/${post._id}`); // kept from its second read
    expect(((await get(`/api/posts/${post._id}`)) as Post).message).toBe('before');
    // Listening (not listening, it would say yes to every ask): only the signal can show the edit.
    expect(
      await readUntil(
        async () => t.db.committedElsewhere!(),
        (was) => !was,
      ),
    ).toBe(false);
    await other.query('update posts set message = $1 where id = $2', ['after', post._id]);
    const seen = await readUntil(
      () => get(`/api/posts/${post._id}`) as Promise<Post>,
      (shown) => shown.message === 'after',
    );
    expect(seen.message).toBe('after');
  });

  it('a like made by another connection shows in the kept list, with its count', async () => {
    const post = await createPost(t.app, author);
    for (let i = 0; i < 3; i++) await get('/api/posts?feed=all');
    await other.query(
      `insert into post_reactions (post_id, user_id, kind, created_at) values ($1, $2, 'like', now()::text)`,
      [post._id, author.id],
    );
    await other.query('update posts set likes_count = 1 where id = $1', [post._id]);
    const [first] = await readUntil(
      () => get('/api/posts?feed=all') as Promise<Post[]>,
      ([shown]) => shown.myReaction === 'like',
    );
    expect([first._id, first.myReaction, first.likesCount]).toEqual([post._id, 'like', 1]);
  });
});
