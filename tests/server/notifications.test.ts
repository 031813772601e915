import { domainEvents } from '../../server/events/domainEvents';
import { unreadFellFor } from '../../server/events/events';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CompiledQuery, sql } from 'kysely';
import { MENTIONS_PER_MESSAGE_MAX } from '../../lib/limits';
import type { AppNotification, Comment, Post } from '../../lib/types';
import { selectComments } from '../../server/comments/repository';
import { localBus } from '../../server/instance/bus';
import { notificationStreams } from '../../server/notifications/streams';
import { streamSlots } from '../../server/notifications/streamSlots';
import { selectPosts } from '../../server/posts/repository';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, cookieHeader, cookiesOf, createTestApp, signIn } from './helpers';
import { listening, openStream } from './sse';

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
let carol: SignedInUser;
beforeAll(async () => {
  t = await createTestApp({ SSE_HEARTBEAT_MS: '100' });
  alice = await signIn(t.app);
  bob = await signIn(t.app);
  carol = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
});

const inject = (
  user: SignedInUser | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });

async function notificationsOf(user: SignedInUser): Promise<AppNotification[]> {
  const res = await inject(user, 'GET', '/api/notifications?limit=40');
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function unread(user: SignedInUser): Promise<number> {
  const res = await inject(user, 'GET', '/api/notifications/unread');
  expect(res.statusCode).toBe(200);
  return res.json().count;
}

/** Marks everything read, so each test starts from a clean unread count. */
async function readAll(user: SignedInUser) {
  expect((await inject(user, 'POST', '/api/notifications/read', {})).statusCode).toBe(200);
}

const like = (user: SignedInUser, postId: string, kind: 'like' | 'dislike' = 'like') =>
  inject(user, 'PATCH', `/api/posts/${postId}/${kind}`, { userId: user.id });

async function comment(user: SignedInUser, postId: string, message: string): Promise<Comment> {
  const res = await inject(user, 'POST', `/api/posts/${postId}/comments`, { message });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const likeComment = (user: SignedInUser, postId: string, commentId: string, kind: 'like' | 'dislike' = 'like') =>
  inject(user, 'PATCH', `/api/posts/${postId}/comments/${kind}`, { commentId, userId: user.id });

async function freshUsers(n: number) {
  return Promise.all(Array.from({ length: n }, () => signIn(t.app)));
}

describe('notifications', () => {
  it('a follow notifies the followed user, once, and an unfollow takes it back while unread', async () => {
    const [follower, followed] = await freshUsers(2);
    expect((await inject(follower, 'PATCH', `/api/users/${followed.username}/follow`)).statusCode).toBe(200);
    expect((await inject(follower, 'PATCH', `/api/users/${followed.username}/follow`)).statusCode).toBe(200);
    const list = await notificationsOf(followed);
    expect(list).toEqual([
      {
        id: expect.any(String),
        type: 'follow',
        read: false,
        createdAt: expect.any(String),
        actor: { username: follower.username, avatar: null, followedByMe: false },
        post: null,
        comment: null,
      },
    ]);
    expect(await unread(followed)).toBe(1);
    // Followed back: the notification says so (its Follow back button reads Following, issue 68 item 30).
    expect((await inject(followed, 'PATCH', `/api/users/${follower.username}/follow`)).statusCode).toBe(200);
    expect((await notificationsOf(followed))[0].actor).toEqual({
      username: follower.username,
      avatar: null,
      followedByMe: true,
    });
    await inject(followed, 'PATCH', `/api/users/${follower.username}/unfollow`);
    expect(await notificationsOf(follower)).toEqual([]);

    await inject(follower, 'PATCH', `/api/users/${followed.username}/unfollow`);
    expect(await notificationsOf(followed)).toEqual([]);
    await inject(follower, 'PATCH', `/api/users/${followed.username}/follow`);
    await readAll(followed);
    // Read now: an unfollow keeps it, and following again does not add a second one.
    await inject(follower, 'PATCH', `/api/users/${followed.username}/unfollow`);
    await inject(follower, 'PATCH', `/api/users/${followed.username}/follow`);
    const after = await notificationsOf(followed);
    expect(after.map((n) => [n.type, n.read])).toEqual([['follow', true]]);
  });

  it('a like notifies the creator once; toggling it off and on makes no second one; own likes and dislikes never notify', async () => {
    const post = await createPost(t.app, alice);
    await readAll(alice);
    expect((await like(alice, post._id)).statusCode).toBe(200); // her own
    expect(await unread(alice)).toBe(0);
    await like(alice, post._id);

    await like(bob, post._id, 'dislike');
    expect(await unread(alice)).toBe(0);

    await like(bob, post._id); // replaces the dislike
    expect(await unread(alice)).toBe(1);
    const [first] = await notificationsOf(alice);
    expect(first).toMatchObject({
      type: 'like',
      read: false,
      actor: { username: bob.username },
      post: { _id: post._id, image: post.image },
      comment: null,
    });

    await like(bob, post._id); // off: the unread notification goes
    expect(await unread(alice)).toBe(0);
    expect((await notificationsOf(alice)).some((n) => n.post?._id === post._id)).toBe(false);
    await like(bob, post._id); // on again
    await like(bob, post._id); // off
    await like(bob, post._id); // on
    const likes = (await notificationsOf(alice)).filter((n) => n.post?._id === post._id);
    expect(likes).toHaveLength(1);

    await readAll(alice);
    await like(bob, post._id, 'dislike'); // replaces the like; the read notification stays
    await like(bob, post._id);
    const again = (await notificationsOf(alice)).filter((n) => n.post?._id === post._id);
    expect(again.map((n) => [n.type, n.read])).toEqual([['like', true]]);
  });

  it('a dislike replacing an unread like takes the like notification back', async () => {
    const post = await createPost(t.app, alice);
    await readAll(alice);
    await like(carol, post._id);
    expect(await unread(alice)).toBe(1);
    await like(carol, post._id, 'dislike');
    expect(await unread(alice)).toBe(0);
  });

  it("counts as unread only what the list shows: a suspended actor's notification leaves both, and comes back with them", async () => {
    const [author, fan] = await freshUsers(2);
    const post = await createPost(t.app, author);
    await like(fan, post._id);
    expect(await unread(author)).toBe(1);
    // alice made the first account: she runs the instance.
    expect((await inject(alice, 'POST', `/api/admin/users/${fan.username}/suspend`, {})).statusCode).toBe(200);
    expect(await notificationsOf(author)).toEqual([]);
    expect(await unread(author)).toBe(0);
    expect((await inject(alice, 'POST', `/api/admin/users/${fan.username}/unsuspend`, {})).statusCode).toBe(200);
    expect(await unread(author)).toBe(1);
  });

  it("a comment notifies the post's creator with the comment; one's own comment does not", async () => {
    const post = await createPost(t.app, alice);
    await readAll(alice);
    await comment(alice, post._id, 'my own');
    expect(await unread(alice)).toBe(0);
    const made = await comment(bob, post._id, 'Nice one');
    const [n] = await notificationsOf(alice);
    expect(n).toMatchObject({
      type: 'comment',
      actor: { username: bob.username },
      post: { _id: post._id, image: post.image },
      comment: { commentId: made.commentId, message: 'Nice one' },
    });
  });

  it("a comment's like notifies its author, with the same toggling rules", async () => {
    const post = await createPost(t.app, alice);
    const made = await comment(bob, post._id, 'Liked?');
    await readAll(bob);
    await likeComment(bob, post._id, made.commentId); // his own
    await likeComment(bob, post._id, made.commentId);
    await likeComment(carol, post._id, made.commentId, 'dislike');
    expect(await unread(bob)).toBe(0);
    await likeComment(carol, post._id, made.commentId);
    const [n] = await notificationsOf(bob);
    expect(n).toMatchObject({
      type: 'commentLike',
      actor: { username: carol.username },
      post: { _id: post._id },
      comment: { commentId: made.commentId, message: 'Liked?' },
    });
    await likeComment(carol, post._id, made.commentId);
    expect(await unread(bob)).toBe(0);
    await likeComment(carol, post._id, made.commentId);
    await likeComment(carol, post._id, made.commentId);
    await likeComment(carol, post._id, made.commentId);
    expect((await notificationsOf(bob)).filter((x) => x.comment?.commentId === made.commentId)).toHaveLength(1);
  });

  it('a deleted post takes its notifications with it, comments and mentions included', async () => {
    const [author, fan] = await freshUsers(2);
    const post = await createPost(t.app, author, { message: `Hi @${fan.username}` });
    await like(fan, post._id);
    const made = await comment(fan, post._id, 'first');
    await likeComment(author, post._id, made.commentId);
    expect((await notificationsOf(author)).map((n) => n.type).sort()).toEqual(['comment', 'like']);
    expect((await notificationsOf(fan)).map((n) => n.type).sort()).toEqual(['commentLike', 'mention']);
    expect((await inject(author, 'DELETE', `/api/posts/${post._id}/manage`)).statusCode).toBe(200);
    expect(await notificationsOf(author)).toEqual([]);
    expect(await notificationsOf(fan)).toEqual([]);
  });

  it('a deleted comment takes its notifications with it', async () => {
    const [author, fan, other] = await freshUsers(3);
    const post = await createPost(t.app, author);
    const made = await comment(fan, post._id, `cc @${other.username}`);
    await likeComment(author, post._id, made.commentId);
    expect(await unread(author)).toBe(1);
    expect(await unread(other)).toBe(1);
    expect(await unread(fan)).toBe(1);
    const res = await inject(fan, 'DELETE', `/api/posts/${post._id}/comments/${made.commentId}`);
    expect(res.statusCode).toBe(200);
    expect(await notificationsOf(author)).toEqual([]);
    expect(await notificationsOf(other)).toEqual([]);
    expect(await notificationsOf(fan)).toEqual([]);
  });

  it('lists newest first with cursor paging and a Link header', async () => {
    const [me, ...fans] = await freshUsers(4);
    for (const fan of fans) await inject(fan, 'PATCH', `/api/users/${me.username}/follow`);
    const first = await inject(me, 'GET', '/api/notifications?limit=2');
    expect(first.statusCode).toBe(200);
    expect(first.json().map((n: AppNotification) => n.actor.username)).toEqual([fans[2].username, fans[1].username]);
    const link = first.headers.link as string;
    expect(link).toMatch(/^<\/api\/notifications\?limit=2&cursor=[0-9a-f-]+>; rel="next"$/);
    const second = await t.app.inject({ method: 'GET', url: /<([^>]+)>/.exec(link)![1], headers: me.headers });
    expect(second.json().map((n: AppNotification) => n.actor.username)).toEqual([fans[0].username]);
    expect(second.headers.link).toBeUndefined();
    expect((await inject(me, 'GET', '/api/notifications?cursor=nope')).statusCode).toBe(400);
  });

  it('marks all read, or those up to and including upTo', async () => {
    const [me, ...fans] = await freshUsers(4);
    for (const fan of fans) await inject(fan, 'PATCH', `/api/users/${me.username}/follow`);
    const [newest, middle, oldest] = await notificationsOf(me);
    const res = await inject(me, 'POST', '/api/notifications/read', { upTo: middle.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 1 });
    const list = await notificationsOf(me);
    expect(list.map((n) => [n.id, n.read])).toEqual([
      [newest.id, false],
      [middle.id, true],
      [oldest.id, true],
    ]);
    expect(await unread(me)).toBe(1);
    const all = await t.app.inject({ method: 'POST', url: '/api/notifications/read', headers: me.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({ count: 0 });
    // Someone else's marks do not touch mine.
    await inject(fans[0], 'PATCH', `/api/users/${me.username}/unfollow`);
    await inject(fans[0], 'PATCH', `/api/users/${me.username}/follow`);
    await readAll(fans[1]);
    expect(await unread(me)).toBe(0);
  });

  it('never makes read ones unread again: an older upTo changes nothing', async () => {
    const [me, ...fans] = await freshUsers(4);
    for (const fan of fans) await inject(fan, 'PATCH', `/api/users/${me.username}/follow`);
    const [newest, middle] = await notificationsOf(me);
    const marked = await inject(me, 'POST', '/api/notifications/read', { upTo: middle.id });
    expect(marked.json()).toEqual({ count: 1 });
    const older = await inject(me, 'POST', '/api/notifications/read', { upTo: (await notificationsOf(me))[2].id });
    expect(older.json()).toEqual({ count: 1 });
    expect((await notificationsOf(me)).map((n) => [n.id, n.read])[0]).toEqual([newest.id, false]);
  });

  it('refuses a bad upTo with 400, and visitors with 401', async () => {
    const bad = await inject(alice, 'POST', '/api/notifications/read', { upTo: 'yesterday' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'upTo must be the id of a notification', code: 'InvalidNotification' });
    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread'],
      ['POST', '/api/notifications/read'],
      ['GET', '/api/notifications/stream'],
    ] as const) {
      const res = await inject(null, method, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual({ message: expect.any(String), code: 'Unauthorized' });
    }
  });
});

describe('mentions', () => {
  it('notifies each mentioned user once, links only those who exist, and not the author', async () => {
    const [author, ann, ben] = await freshUsers(3);
    const message = `@${ann.username.toUpperCase()} and @${ben.username}, @${ann.username} again, @nobody_here, mail me@${ben.username}, me: @${author.username}.`;
    const post = await createPost(t.app, author, { message });
    expect(post.mentions).toEqual([ann.username, ben.username, author.username]);
    for (const user of [ann, ben]) {
      const list = await notificationsOf(user);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ type: 'mention', actor: { username: author.username }, post: { _id: post._id } });
      expect(list[0].comment).toBeNull();
    }
    expect(await notificationsOf(author)).toEqual([]);

    // Every list shows them, from one read per page.
    const get = await inject(author, 'GET', `/api/posts/${post._id}`);
    expect(get.json().mentions).toEqual(post.mentions);
    const all: Post[] = (await inject(author, 'GET', '/api/posts?feed=all&limit=40')).json();
    expect(all.find((p) => p._id === post._id)!.mentions).toEqual(post.mentions);
    const home: Post[] = (await inject(author, 'GET', '/api/posts?feed=following')).json();
    expect(home.find((p) => p._id === post._id)!.mentions).toEqual(post.mentions);
    const mine: Post[] = (await inject(author, 'GET', `/api/users/${author.username}/posts`)).json();
    expect(mine[0].mentions).toEqual(post.mentions);
    const tagged: Post[] = (await inject(author, 'GET', '/api/posts/tagged?tags=sun&limit=40')).json();
    expect(tagged.find((p) => p._id === post._id)!.mentions).toEqual(post.mentions);
    const plain = await createPost(t.app, author, { message: 'nobody' });
    expect(plain.mentions).toEqual([]);
  });

  it(`links and notifies the first ${MENTIONS_PER_MESSAGE_MAX} people a text names, no more (issue 36)`, async () => {
    const [author, ...named] = await freshUsers(MENTIONS_PER_MESSAGE_MAX + 3);
    const message = named.map((u) => `@${u.username}`).join(' ');
    const made = await createPost(t.app, author, { message });
    const first = named.slice(0, MENTIONS_PER_MESSAGE_MAX).map((u) => u.username);
    expect(made.mentions).toEqual(first);
    const heard = await Promise.all(named.map(async (u) => (await notificationsOf(u)).length));
    expect(heard).toEqual(named.map((_, i) => (i < MENTIONS_PER_MESSAGE_MAX ? 1 : 0)));
    // A comment is held to the same number.
    const post = await createPost(t.app, author);
    const commented = await comment(author, post._id, message);
    expect(commented.mentions).toEqual(first);
  });

  it('sends at most RATE_LIMIT_MENTIONS_PER_USER mentions a minute from one author; the rest stay linked, unsent (issue 36)', async () => {
    const capped = await createTestApp({ RATE_LIMIT_MENTIONS_PER_USER: '3' });
    try {
      const [author, ...named] = await Promise.all(Array.from({ length: 6 }, () => signIn(capped.app)));
      const mention = (users: SignedInUser[]) => users.map((u) => `@${u.username}`).join(' ');
      const commentOn = (postId: string, message: string) =>
        capped.app.inject({
          method: 'POST',
          url: `/api/posts/${postId}/comments`,
          headers: author.headers,
          payload: { message },
        });
      const heard = async () =>
        Promise.all(
          named.map(async (u) => {
            const res = await capped.app.inject({ method: 'GET', url: '/api/notifications', headers: u.headers });
            return (res.json() as AppNotification[]).length;
          }),
        );
      const post = await createPost(capped.app, author, { message: mention(named.slice(0, 2)) });
      expect(post.mentions).toHaveLength(2);
      const second = await commentOn(post._id, mention(named.slice(2)));
      expect(second.statusCode).toBe(201);
      expect((second.json() as Comment).mentions).toEqual(named.slice(2).map((u) => u.username));
      expect(await heard()).toEqual([1, 1, 1, 0, 0]);
      // Other kinds are not held by it: the post's author still hears of a comment.
      const other = await signIn(capped.app);
      const mine = await createPost(capped.app, other);
      expect((await commentOn(mine._id, `@${named[4].username}`)).statusCode).toBe(201);
      const res = await capped.app.inject({ method: 'GET', url: '/api/notifications', headers: other.headers });
      expect((res.json() as AppNotification[]).map((n) => n.type)).toEqual(['comment']);
      expect(await heard()).toEqual([1, 1, 1, 0, 0]);
    } finally {
      await capped.close();
    }
  });

  it('an edit notifies the newly mentioned only, and never twice for one post', async () => {
    const [author, ann, ben] = await freshUsers(3);
    const post = await createPost(t.app, author, { message: `hi @${ann.username}` });
    const edit = (message: string) => inject(author, 'PATCH', `/api/posts/${post._id}/manage`, { post: { message } });
    let res = await edit(`hi @${ann.username} and @${ben.username}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().mentions).toEqual([ann.username, ben.username]);
    expect(await unread(ann)).toBe(1);
    expect(await unread(ben)).toBe(1);

    res = await edit('hi nobody');
    expect(res.json().mentions).toEqual([]);
    res = await edit(`hi @${ben.username}`);
    expect(res.json().mentions).toEqual([ben.username]);
    expect(await notificationsOf(ben)).toHaveLength(1);
    // Editing other fields leaves them alone.
    res = await inject(author, 'PATCH', `/api/posts/${post._id}/manage`, { post: { tags: ['other'] } });
    expect(res.json().mentions).toEqual([ben.username]);
  });

  it('a comment notifies the users it mentions, except the post creator who hears of the comment', async () => {
    const [author, writer, ann] = await freshUsers(3);
    const post = await createPost(t.app, author);
    const made = await comment(writer, post._id, `@${ann.username} look, @${author.username} too, @ghost_user`);
    expect(made.mentions).toEqual([ann.username, author.username]);
    const [n] = await notificationsOf(ann);
    expect(n).toMatchObject({
      type: 'mention',
      actor: { username: writer.username },
      post: { _id: post._id },
      comment: { commentId: made.commentId },
    });
    expect((await notificationsOf(author)).map((x) => x.type)).toEqual(['comment']);
    const list: Comment[] = (await inject(author, 'GET', `/api/posts/${post._id}/comments`)).json();
    expect(list[0].mentions).toEqual(made.mentions);
    const withComments = (await inject(author, 'GET', `/api/posts/${post._id}`)).json();
    expect(withComments.comments[0].mentions).toEqual(made.mentions);
  });
});

describe('mentions in the lists', () => {
  it("are read in the lists' own statement through the mentions tables' primary keys", async () => {
    const db = t.db.kysely;
    const queries = {
      post_mentions: selectPosts(db, alice.id).orderBy('posts.id', 'desc').limit(12).compile(),
      comment_mentions: selectComments(db, alice.id).orderBy('comments.id', 'desc').limit(12).compile(),
    };
    for (const [table, query] of Object.entries(queries)) {
      if (t.db.dialect === 'sqlite') {
        const plan = await db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
        );
        const details = plan.rows.map((r) => r.detail);
        expect(details, table).toContain(
          `SEARCH m USING COVERING INDEX sqlite_autoindex_${table}_1 (${table === 'post_mentions' ? 'post_id' : 'comment_id'}=?)`,
        );
        expect(
          details.some((d) => d.startsWith('SCAN m')),
          table,
        ).toBe(false);
      } else {
        await db.transaction().execute(async (trx) => {
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
          );
          const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
          expect(text, table).toContain(`on ${table}_pk`);
          expect(text, table).not.toMatch(new RegExp(`Seq Scan on ${table}`));
        });
      }
    }
  });
});

describe('the stream', () => {
  it('takes at most 32 open streams per user (429 beyond)', async () => {
    const user = (await freshUsers(1))[0];
    const streams = await Promise.all(Array.from({ length: 32 }, () => openStream(t.app, user.headers)));
    try {
      expect(streams.every((s) => s.response.status === 200)).toBe(true);
      const refused = await fetch(`${await listening(t.app)}/api/notifications/stream`, { headers: user.headers });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toEqual({ message: expect.any(String), code: 'TooManyStreams' });
      // Someone else still gets one.
      const other = await openStream(t.app, alice.headers);
      expect(other.response.status).toBe(200);
      other.close();
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('sends each new notification as an event with its id, and a heartbeat', async () => {
    const [me, fan] = await freshUsers(2);
    const stream = await openStream(t.app, me.headers);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.response.headers.get('cache-control')).toBe('private, no-store');
      await inject(fan, 'PATCH', `/api/users/${me.username}/follow`);
      const event = await stream.notification();
      const [stored] = await notificationsOf(me);
      expect(event).toEqual({ id: stored.id, data: stored });
      // SSE_HEARTBEAT_MS is 100 here.
      const beat = await stream.next((e) => e.comments.includes('keep-alive'), 2000);
      expect(beat.event).toBeNull();
      // Someone else's notifications do not reach it.
      await inject(me, 'PATCH', `/api/users/${fan.username}/follow`);
      const post = await createPost(t.app, fan);
      await like(me, post._id);
      await like(fan, post._id);
      await like(fan, post._id);
      await comment(fan, post._id, `@${me.username}`);
      const next = await stream.notification();
      expect(next.data).toMatchObject({ type: 'mention', actor: { username: fan.username } });
    } finally {
      stream.close();
    }
  });

  it('replays what was missed after Last-Event-ID', async () => {
    const [me, ...fans] = await freshUsers(4);
    for (const fan of fans) await inject(fan, 'PATCH', `/api/users/${me.username}/follow`);
    const [newest, middle, oldest] = await notificationsOf(me);
    const stream = await openStream(t.app, { ...me.headers, 'last-event-id': oldest.id });
    try {
      expect((await stream.notification()).id).toBe(middle.id);
      expect((await stream.notification()).id).toBe(newest.id);
      const post = await createPost(t.app, me);
      await like(fans[0], post._id);
      expect((await stream.notification()).data).toMatchObject({ type: 'like', post: { _id: post._id } });
    } finally {
      stream.close();
    }
  });

  it('ends open streams when the app closes', async () => {
    const other = await createTestApp();
    const user = await signIn(other.app);
    const stream = await openStream(other.app, user.headers);
    await stream.next((e) => e.comments.includes('connected'));
    expect(other.app.ctx.notificationStreams.size).toBe(1);
    const closed = other.close();
    expect(await stream.ends()).toBe(true);
    await closed;
  });
});

describe('caps on open streams beyond the per-user one (issue 36)', () => {
  /** An app with the caps in `env`, some users of it, and a way to try one more stream. */
  async function cappedApp(env: Record<string, string>, users: number) {
    const capped = await createTestApp(env);
    const people = await Promise.all(Array.from({ length: users }, () => signIn(capped.app)));
    const base = await listening(capped.app);
    const attempt = (user: SignedInUser) => fetch(`${base}/api/notifications/stream`, { headers: user.headers });
    return { capped, people, attempt };
  }

  it("refuses a stream over the address's cap with 429, whoever asks, until one of them closes", async () => {
    const { capped, people, attempt } = await cappedApp({ SSE_STREAMS_PER_IP: '2' }, 3);
    const open = await Promise.all(people.slice(0, 2).map((user) => openStream(capped.app, user.headers)));
    try {
      expect(open.map((s) => s.response.status)).toEqual([200, 200]);
      // A third person behind the same address.
      const refused = await attempt(people[2]);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toEqual({
        message: 'Too many notification streams are open from your address; close one first',
        code: 'TooManyStreamsFromAddress',
      });
      open.shift()!.close();
      await vi.waitFor(() => expect(capped.app.ctx.notificationStreams.size).toBe(1), { timeout: 30_000 });
      open.push(await openStream(capped.app, people[2].headers));
      expect(open[1].response.status).toBe(200);
    } finally {
      for (const stream of open) stream.close();
      await capped.close();
    }
  });

  it("refuses a stream over the process's cap with 503, whoever asks, and keeps answering the rest", async () => {
    const { capped, people, attempt } = await cappedApp({ SSE_STREAMS_MAX: '2' }, 3);
    const open = await Promise.all(people.slice(0, 2).map((user) => openStream(capped.app, user.headers)));
    try {
      expect(open.map((s) => s.response.status)).toEqual([200, 200]);
      const refused = await attempt(people[2]);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toEqual({
        message: 'This server holds as many notification streams as it can; try again in a minute',
        code: 'StreamsFull',
        requestId: refused.headers.get('x-request-id'),
      });
      const other = await capped.app.inject({
        method: 'GET',
        url: '/api/notifications/unread',
        headers: people[2].headers,
      });
      expect(other.statusCode).toBe(200);
    } finally {
      for (const stream of open) stream.close();
      await capped.close();
    }
  });
});

describe('the stream ends with its session (issue 36)', () => {
  /** The user signed in once more: another session, as from another device. */
  async function anotherSession(user: SignedInUser): Promise<SignedInUser> {
    const login = await inject(null, 'POST', '/api/auth/login', { email: user.email, password: user.password });
    expect(login.statusCode).toBe(200);
    const cookies = cookiesOf(login);
    return { ...user, cookies, headers: { cookie: cookieHeader(cookies) } };
  }

  /** A stream of the user's, once the server has taken it. */
  async function streamOf(user: SignedInUser, app = t.app) {
    const stream = await openStream(app, user.headers);
    await stream.next((e) => e.comments.includes('connected'));
    return stream;
  }

  it('"sign out everywhere else" ends the other sessions\' streams, not the kept one\'s', async () => {
    const [phone, fan] = await freshUsers(2);
    const laptop = await anotherSession(phone);
    const [phoneStream, laptopStream] = [await streamOf(phone), await streamOf(laptop)];
    try {
      expect((await inject(laptop, 'DELETE', '/api/auth/sessions')).statusCode).toBe(200);
      expect(await phoneStream.ends()).toBe(true);
      await inject(fan, 'PATCH', `/api/users/${phone.username}/follow`);
      expect((await laptopStream.notification()).data).toMatchObject({ type: 'follow' });
    } finally {
      phoneStream.close();
      laptopStream.close();
    }
  });

  it("signing one device out from Settings ends that session's stream", async () => {
    const [phone] = await freshUsers(1);
    const laptop = await anotherSession(phone);
    const stream = await streamOf(phone);
    try {
      const sessions = (await inject(laptop, 'GET', '/api/auth/sessions')).json() as { id: string; current: boolean }[];
      const other = sessions.find((session) => !session.current)!;
      expect((await inject(laptop, 'DELETE', `/api/auth/sessions/${other.id}`)).statusCode).toBe(200);
      expect(await stream.ends()).toBe(true);
    } finally {
      stream.close();
    }
  });

  it("a suspension ends every stream of the suspended user's", async () => {
    const [member] = await freshUsers(1);
    const streams = [await streamOf(member), await streamOf(await anotherSession(member))];
    try {
      // alice made the first account: she runs the instance.
      expect((await inject(alice, 'POST', `/api/admin/users/${member.username}/suspend`, {})).statusCode).toBe(200);
      for (const stream of streams) expect(await stream.ends()).toBe(true);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it("deleting the account ends every stream of the account's", async () => {
    const [leaving] = await freshUsers(1);
    const streams = [await streamOf(leaving), await streamOf(await anotherSession(leaving))];
    try {
      const res = await inject(leaving, 'DELETE', '/api/users/me', { password: leaving.password });
      expect(res.statusCode).toBe(200);
      for (const stream of streams) expect(await stream.ends()).toBe(true);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  describe.runIf(process.env.TEST_REDIS_URL)('on another instance, through Redis', () => {
    it('"sign out everywhere else" made on one instance ends the stream held by another', async () => {
      const redis = { REDIS_URL: process.env.TEST_REDIS_URL! };
      const one = await createTestApp(redis);
      const two = await createTestApp(redis, { sameDatabaseAs: one });
      try {
        await Promise.all([one.app.ctx.bus.ready(), two.app.ctx.bus.ready()]);
        const phone = await signIn(one.app);
        const login = await one.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: phone.email, password: phone.password },
        });
        const laptop = { cookie: cookieHeader(cookiesOf(login)) };
        const stream = await streamOf(phone, two.app);
        try {
          const res = await one.app.inject({ method: 'DELETE', url: '/api/auth/sessions', headers: laptop });
          expect(res.statusCode).toBe(200);
          expect(await stream.ends()).toBe(true);
        } finally {
          stream.close();
        }
      } finally {
        await two.close();
        await one.close();
      }
    });
  });
});

describe('the stream when unread notifications are removed (issue 21)', () => {
  /** A stream of the user's, once the server has taken it (an event before that finds no stream). */
  async function streamOf(user: SignedInUser) {
    const stream = await openStream(t.app, user.headers);
    await stream.next((e) => e.comments.includes('connected'));
    return stream;
  }

  it('a like taken back sends the lower unread count at once, as an `unread` event without an id', async () => {
    const [me, fan] = await freshUsers(2);
    const post = await createPost(t.app, me);
    const stream = await streamOf(me);
    try {
      await inject(fan, 'PATCH', `/api/users/${me.username}/follow`);
      await like(fan, post._id);
      expect((await stream.notification()).data).toMatchObject({ type: 'follow' });
      expect((await stream.notification()).data).toMatchObject({ type: 'like', post: { _id: post._id } });
      expect(await unread(me)).toBe(2);

      const res = await like(fan, post._id); // off
      expect(res.json()).toMatchObject({ myReaction: null });
      const event = await stream.next((e) => e.event === 'unread');
      expect(event).toEqual({ event: 'unread', id: null, data: '{"count":1}', comments: [] });
      expect(await unread(me)).toBe(1);
    } finally {
      stream.close();
    }
  });

  it("the same for a comment's like taken back, a dislike replacing a like, and an unfollow", async () => {
    const [me, fan] = await freshUsers(2);
    const post = await createPost(t.app, fan);
    const mine = await comment(me, post._id, 'mine');
    const ownPost = await createPost(t.app, me);
    const stream = await streamOf(me);
    try {
      await inject(fan, 'PATCH', `/api/users/${me.username}/follow`);
      await likeComment(fan, post._id, mine.commentId);
      await like(fan, ownPost._id);
      for (const type of ['follow', 'commentLike', 'like']) expect((await stream.notification()).data.type).toBe(type);

      await likeComment(fan, post._id, mine.commentId); // off
      expect((await stream.unread()).count).toBe(2);
      await like(fan, ownPost._id, 'dislike'); // replaces the like
      expect((await stream.unread()).count).toBe(1);
      await inject(fan, 'PATCH', `/api/users/${me.username}/unfollow`);
      expect((await stream.unread()).count).toBe(0);
      expect(await unread(me)).toBe(0);
    } finally {
      stream.close();
    }
  });

  it('sends nothing when the like taken back had been read (its notification stays)', async () => {
    const [me, fan] = await freshUsers(2);
    const post = await createPost(t.app, me);
    const stream = await streamOf(me);
    try {
      await like(fan, post._id);
      await stream.notification();
      await readAll(me);
      expect((await stream.unread()).count).toBe(0); // marking read tells the streams too
      await like(fan, post._id); // off: the read notification stays, the count was 0 and is 0
      await like(fan, post._id, 'dislike');
      await inject(fan, 'PATCH', `/api/users/${me.username}/follow`);
      // The next event is the follow's: nothing was sent for the like.
      const next = await stream.event();
      expect(next.event).toBe('notification');
      expect(JSON.parse(next.data!)).toMatchObject({ type: 'follow' });
    } finally {
      stream.close();
    }
  });

  it("marking read sends each of the user's open streams (another tab's too) the count left", async () => {
    const [me, fan] = await freshUsers(2);
    const [one, two] = [await createPost(t.app, me), await createPost(t.app, me)];
    const tabs = [await streamOf(me), await streamOf(me)];
    try {
      await like(fan, one._id);
      await like(fan, two._id);
      for (const tab of tabs) for (let i = 0; i < 2; i++) expect((await tab.notification()).data.type).toBe('like');
      const [, older] = (await inject(me, 'GET', '/api/notifications')).json() as { id: string }[];
      const res = await inject(me, 'POST', '/api/notifications/read', { upTo: older.id });
      expect(res.json()).toEqual({ count: 1 });
      for (const tab of tabs) expect((await tab.unread()).count).toBe(1);
      await readAll(me);
      for (const tab of tabs) expect((await tab.unread()).count).toBe(0);
    } finally {
      for (const tab of tabs) tab.close();
    }
  });

  it('a deleted comment or post sends each recipient with unread ones among its notifications the new count', async () => {
    const [author, fan, other] = await freshUsers(3);
    const post = await createPost(t.app, author, { message: `Hi @${other.username}` });
    const [authorStream, fanStream, otherStream] = await Promise.all([author, fan, other].map(streamOf));
    try {
      await inject(other, 'PATCH', `/api/users/${author.username}/follow`); // stays
      const made = await comment(fan, post._id, `cc @${other.username}`);
      await likeComment(author, post._id, made.commentId);
      expect(await unread(author)).toBe(2); // the follow, the comment
      expect(await unread(other)).toBe(2); // the post's mention, the comment's
      expect(await unread(fan)).toBe(1); // the comment's like

      expect((await inject(fan, 'DELETE', `/api/posts/${post._id}/comments/${made.commentId}`)).statusCode).toBe(200);
      expect((await authorStream.unread()).count).toBe(1);
      expect((await otherStream.unread()).count).toBe(1); // the post's mention is left
      expect((await fanStream.unread()).count).toBe(0);

      await like(fan, post._id);
      expect((await authorStream.notification()).data).toMatchObject({ type: 'like' });
      expect((await inject(author, 'DELETE', `/api/posts/${post._id}/manage`)).statusCode).toBe(200);
      expect((await authorStream.unread()).count).toBe(1); // the follow
      expect((await otherStream.unread()).count).toBe(0);
      expect(await unread(author)).toBe(1);
      expect(await unread(other)).toBe(0);
    } finally {
      for (const stream of [authorStream, fanStream, otherStream]) stream.close();
    }
  });

  it('a block sends both people their new counts; a mute, the muter', async () => {
    const [me, rude, loud] = await freshUsers(3);
    const [meStream, rudeStream] = await Promise.all([me, rude].map(streamOf));
    try {
      await inject(rude, 'PATCH', `/api/users/${me.username}/follow`);
      await inject(me, 'PATCH', `/api/users/${rude.username}/follow`);
      await inject(loud, 'PATCH', `/api/users/${me.username}/follow`);
      expect((await rudeStream.notification()).data).toMatchObject({ type: 'follow' });
      expect(await unread(me)).toBe(2);

      expect((await inject(me, 'PATCH', `/api/users/${rude.username}/block`)).statusCode).toBe(200);
      expect((await meStream.unread()).count).toBe(1);
      expect((await rudeStream.unread()).count).toBe(0);

      expect((await inject(me, 'PATCH', `/api/users/${loud.username}/mute`)).statusCode).toBe(200);
      expect((await meStream.unread()).count).toBe(0);
    } finally {
      meStream.close();
      rudeStream.close();
    }
  });

  it('a deleted account sends those who held its unread notifications their new counts', async () => {
    const [me, leaving] = await freshUsers(2);
    const post = await createPost(t.app, leaving, { message: `Bye @${me.username}` });
    await comment(me, post._id, 'Bye!');
    const stream = await streamOf(me);
    try {
      await inject(leaving, 'PATCH', `/api/users/${me.username}/follow`);
      await stream.notification();
      expect(await unread(me)).toBe(2); // the post's mention, the follow
      const res = await inject(leaving, 'DELETE', '/api/users/me', { password: leaving.password });
      expect(res.statusCode).toBe(200);
      expect((await stream.unread()).count).toBe(0);
    } finally {
      stream.close();
    }
  });
});

describe('the stream registry', () => {
  /** A response that keeps what is written to it. */
  function fakeResponse() {
    const written: string[] = [];
    const res = Object.assign(new EventEmitter(), {
      destroyed: false,
      writableLength: 0,
      writeHead: () => res,
      write: (chunk: string) => written.push(chunk) > 0,
      end: () => {},
      destroy: () => {},
    });
    return { res: res as unknown as ServerResponse, written };
  }

  it("writes one user's notification changes in the order they came, however long each read takes", async () => {
    const bus = localBus({ warn: () => {} });
    const events = domainEvents(bus);
    const userId = '0190a0b0-0000-7000-8000-000000000001';
    const notificationId = '0190a0b0-0000-7000-8000-000000000002';
    const streams = notificationStreams({
      events,
      // The like's row is read slowly, the count after its un-like at once.
      find: async (_user, id) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return {
          id,
          type: 'like',
          read: false,
          createdAt: '',
          actor: { username: 'ann', avatar: null, followedByMe: false },
          post: null,
          comment: null,
        };
      },
      missed: async () => [],
      unread: async () => 0,
      heartbeatMs: 60_000,
      slots: streamSlots({ max: 10, perAddress: 10 }),
      log: { warn: () => {} },
    });
    const { res, written } = fakeResponse();
    const req = { socket: { setNoDelay: () => {} } } as unknown as IncomingMessage;
    await streams.open(
      { userId, sessionId: '0190a0b0-0000-7000-8000-000000000005', address: '127.0.0.1' },
      req,
      res,
      null,
    );
    const postId = '0190a0b0-0000-7000-8000-000000000004';
    events.publish({
      type: 'PostReacted',
      postId,
      userId,
      reaction: 'like',
      notifications: [{ userId, notificationId }],
    });
    events.publish({ type: 'PostReacted', postId, userId, reaction: 'like', notifications: unreadFellFor([userId]) });
    // Someone without a stream here costs no read.
    const stranger = '0190a0b0-0000-7000-8000-000000000003';
    events.publish({ type: 'NotificationsRead', userId: stranger, notifications: unreadFellFor([stranger]) });
    await vi.waitFor(() => expect(written).toHaveLength(3), { timeout: 30_000 });
    expect(written.slice(1).map((chunk) => chunk.split('\n')[0])).toEqual(['event: notification', 'event: unread']);
    expect(written[2]).toBe('event: unread\ndata: {"count":0}\n\n');
    streams.close();
    await bus.close();
  });
});

describe.runIf(process.env.TEST_DB === 'postgres' && process.env.TEST_REDIS_URL)('across instances', () => {
  it('a like made through one instance reaches a stream held by another, and so does taking it back', async () => {
    const redis = { REDIS_URL: process.env.TEST_REDIS_URL! };
    const one = await createTestApp(redis);
    const two = await createTestApp(redis, { sameDatabaseAs: one });
    try {
      await Promise.all([one.app.ctx.bus.ready(), two.app.ctx.bus.ready()]);
      const author = await signIn(one.app);
      const fan = await signIn(one.app);
      const post = await createPost(one.app, author);
      const stream = await openStream(one.app, author.headers);
      try {
        await stream.next((e) => e.comments.includes('connected'));
        const res = await two.app.inject({ method: 'PATCH', url: `/api/posts/${post._id}/like`, headers: fan.headers });
        expect(res.statusCode).toBe(200);
        // Redis carries it: no clock is asserted (a busy machine is slow, not wrong).
        const event = await stream.notification(30_000);
        expect(event.data).toMatchObject({ type: 'like', actor: { username: fan.username }, post: { _id: post._id } });

        // Taken back through the other instance: the stream learns the lower count too.
        const off = await two.app.inject({ method: 'PATCH', url: `/api/posts/${post._id}/like`, headers: fan.headers });
        expect(off.statusCode).toBe(200);
        expect(await stream.unread(30_000)).toEqual({ id: null, count: 0 });
      } finally {
        stream.close();
      }
    } finally {
      await two.close();
      await one.close();
    }
  });
});
