import { sql } from 'kysely';
import * as migration017 from '../../server/db/migrations/017_fewer_btrees_per_write';
import * as migration020 from '../../server/db/migrations/020_notifications_read_marker';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

/** The database's owner (it drops it at the end). */
let t: TestApp;
/** The server answering: started again once the tables were made again, as a server starts after its migrations. */
let server: TestApp;
let author: SignedInUser;
let fan: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  server = t;
  author = await signIn(t.app);
  fan = await signIn(t.app);
});
afterAll(async () => {
  if (server !== t) await server?.close();
  await t.close();
});

const inject = (user: SignedInUser, method: 'POST' | 'PATCH', url: string, payload: object = {}) =>
  server.app.inject({ method, url, headers: user.headers, payload });

/** Every row of the three tables the migration makes again, in a stable order. */
async function rows() {
  const k = t.db.kysely;
  return {
    notifications: await k.selectFrom('notifications').selectAll().orderBy('id').execute(),
    postReactions: await k.selectFrom('post_reactions').selectAll().orderBy('post_id').orderBy('user_id').execute(),
    commentReactions: await k
      .selectFrom('comment_reactions')
      .selectAll()
      .orderBy('comment_id')
      .orderBy('user_id')
      .execute(),
  };
}

/** The indexes of the notifications table, by name, and whether SQLite keeps each table without rowids. */
async function shape() {
  if (t.db.dialect === 'postgres') {
    const { rows: indexes } = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes where tablename = 'notifications' order by indexname`.execute(
      t.db.kysely,
    );
    return { indexes: Object.fromEntries(indexes.map((i) => [i.indexname, i.indexdef])), withoutRowid: [] };
  }
  const { rows: tables } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'table'
    and name in ('notifications', 'post_reactions', 'comment_reactions') order by name`.execute(t.db.kysely);
  const { rows: indexes } = await sql<{ name: string; sql: string | null }>`
    select name, sql from sqlite_master where type = 'index' and tbl_name = 'notifications' order by name`.execute(
    t.db.kysely,
  );
  return {
    indexes: Object.fromEntries(indexes.map((i) => [i.name, i.sql ?? 'the unique constraint'])),
    withoutRowid: tables.filter((table) => /without rowid\s*$/i.test(table.sql)).map((table) => table.name),
  };
}

describe('migration 017: fewer b-trees per write', () => {
  it('keeps every notification and reaction through down and up, and the schema as it says', async () => {
    const post = await createPost(t.app, author);
    expect((await inject(fan, 'PATCH', `/api/posts/${post._id}/like`)).statusCode).toBe(200);
    const comment = (await inject(fan, 'POST', `/api/posts/${post._id}/comments`, { message: 'nice' })).json();
    const liked = await inject(author, 'PATCH', `/api/posts/${post._id}/comments/like`, {
      commentId: comment.commentId,
    });
    expect(liked.statusCode).toBe(200);
    const before = await rows();
    expect([before.notifications.length, before.postReactions.length, before.commentReactions.length]).toEqual([
      3, 1, 1,
    ]);

    // As 019 left it: 017 makes again the unread index that 020 drops.
    await migration020.down(t.db.kysely as never);
    const migrated = await shape();
    expect(Object.keys(migrated.indexes)).not.toContain('notifications_actor_idx');
    const unique = Object.entries(migrated.indexes).find(([name]) => name.includes('notifications_action_unique'));
    if (t.db.dialect === 'postgres') expect(unique?.[1]).toMatch(/\(actor_id, user_id, type, subject_id\)/);
    else expect(migrated.withoutRowid).toEqual(['comment_reactions', 'notifications', 'post_reactions']);

    await migration017.down(t.db.kysely as never);
    expect(await rows()).toEqual(before);
    const undone = await shape();
    expect(Object.keys(undone.indexes)).toContain('notifications_actor_idx');
    expect(undone.withoutRowid).toEqual([]);

    await migration017.up(t.db.kysely as never);
    expect(await rows()).toEqual(before);
    expect(await shape()).toEqual(migrated);
    await migration020.up(t.db.kysely as never);
    // PostgreSQL's prepared statements of the running server planned the tables that are gone.
    server = await createTestApp({}, { sameDatabaseAs: t });
  });

  it('still notifies an action once, and takes the notification back when it is undone', async () => {
    const post = await createPost(server.app, author);
    const like = () => inject(fan, 'PATCH', `/api/posts/${post._id}/like`);
    const likesOf = () =>
      t.db.kysely
        .selectFrom('notifications')
        .select('id')
        .where('type', '=', 'like')
        .where('post_id', '=', post._id)
        .execute();
    await like();
    expect(await likesOf()).toHaveLength(1);
    await like(); // taken back while unread
    expect(await likesOf()).toHaveLength(0);
    await like();
    expect((await inject(author, 'POST', '/api/notifications/read', {})).statusCode).toBe(200);
    await like(); // read: it stays
    await like(); // and the same action does not notify twice
    expect(await likesOf()).toHaveLength(1);
  });
});
