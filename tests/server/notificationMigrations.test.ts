import { sql } from 'kysely';
import type { AppNotification } from '../../lib/types';
import * as migration020 from '../../server/db/migrations/020_notifications_read_marker';
import * as migration021 from '../../server/db/migrations/021_comment_notifications_by_comment';
import { notificationsRepository } from '../../server/notifications/repository';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

// An app of its own for each test: a migration taken down and up changes tables under the
// statements PostgreSQL's connections keep prepared ("cached plan must not change result type").
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const inject = (user: SignedInUser, method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, payload: object = {}) =>
  t.app.inject({ method, url, headers: user.headers, payload: method === 'GET' ? undefined : payload });

const list = async (user: SignedInUser) =>
  (await inject(user, 'GET', '/api/notifications')).json() as AppNotification[];

const notificationIndexes = async () =>
  t.db.dialect === 'postgres'
    ? (
        await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'notifications'`.execute(
          t.db.kysely,
        )
      ).rows.map((r) => r.name)
    : (
        await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = 'notifications'`.execute(t.db.kysely)
      ).rows.map((r) => r.name);

describe('migration 020: what a user has read is a marker', () => {
  it('makes the newest notification read before it the marker, and drops the unread index', async () => {
    const [me, other, ...fans] = await Promise.all(Array.from({ length: 5 }, () => signIn(t.app)));
    for (const fan of fans) await inject(fan, 'PATCH', `/api/users/${me.username}/follow`);
    await inject(fans[0], 'PATCH', `/api/users/${other.username}/follow`);
    const list = async (user: SignedInUser) =>
      (await inject(user, 'GET', '/api/notifications')).json() as AppNotification[];
    const [newest, middle, oldest] = await list(me);

    // As 019 kept it: read_at on the rows read (the oldest two), the unread index.
    await migration020.down(t.db.kysely as never);
    expect(await notificationIndexes()).toContain('notifications_unread_idx');
    await t.db.kysely
      .updateTable('notifications')
      .set({ read_at: '2026-12-01T00:00:00.000Z' })
      .where('id', 'in', [oldest.id, middle.id])
      .execute();

    await migration020.up(t.db.kysely as never);
    expect(await notificationIndexes()).not.toContain('notifications_unread_idx');
    const marker = (id: string) =>
      t.db.kysely.selectFrom('users').select('notifications_read_to').where('id', '=', id).executeTakeFirstOrThrow();
    expect(await marker(me.id)).toEqual({ notifications_read_to: middle.id });
    expect(await marker(other.id)).toEqual({ notifications_read_to: null });
    expect((await list(me)).map((n) => [n.id, n.read])).toEqual([
      [newest.id, false],
      [middle.id, true],
      [oldest.id, true],
    ]);
    expect((await inject(me, 'GET', '/api/notifications/unread')).json()).toEqual({ count: 1 });
    expect((await inject(other, 'GET', '/api/notifications/unread')).json()).toEqual({ count: 1 });
  });
});

describe('migration 021: a notification about a comment finds its post through the comment', () => {
  it('keeps no post id for it, shows its post all the same, and a deleted post still takes it', async () => {
    const [author, fan, other] = await Promise.all(Array.from({ length: 3 }, () => signIn(t.app)));
    const post = await createPost(t.app, author);
    await inject(fan, 'PATCH', `/api/posts/${post._id}/like`);
    const made = (
      await inject(fan, 'POST', `/api/posts/${post._id}/comments`, { message: `cc @${other.username}` })
    ).json();
    await inject(author, 'PATCH', `/api/posts/${post._id}/comments/like`, { commentId: made.commentId });
    const stored = () =>
      t.db.kysely
        .selectFrom('notifications')
        .select(['type', 'post_id'])
        .where('user_id', 'in', [author.id, fan.id, other.id])
        .orderBy('type')
        .execute();
    const byComment = [
      { type: 'comment', post_id: null },
      { type: 'commentLike', post_id: null },
      { type: 'like', post_id: post._id },
      { type: 'mention', post_id: null },
    ];
    expect(await stored()).toEqual(byComment);
    const shown = { _id: post._id, image: post.image };
    for (const user of [author, fan, other])
      for (const n of await list(user)) expect([n.type, n.post]).toEqual([n.type, shown]);

    // As 020 left them, and back.
    await migration021.down(t.db.kysely as never);
    expect(await stored()).toEqual(byComment.map((row) => ({ ...row, post_id: post._id })));
    await migration021.up(t.db.kysely as never);
    expect(await stored()).toEqual(byComment);

    // Whose unread count a deleted post lowers: read before its cascade takes them.
    const about = await notificationsRepository(t.db.kysely).unreadRecipientsAbout({ postId: post._id });
    expect(about.sort()).toEqual([author.id, fan.id, other.id].sort());
    expect((await inject(author, 'DELETE', `/api/posts/${post._id}/manage`)).statusCode).toBe(200);
    expect(await stored()).toEqual([]);
  });
});
