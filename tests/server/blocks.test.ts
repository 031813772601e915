/** Issue 23, part 1: blocks, mutes, and suspended users' content hidden from every list and read. */
import type { Post } from '../../lib/types';
import { homeFeedQueries } from '../../server/posts/homeFeed/queries';
import { createPost, walkPages } from './factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
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
const ids = (res: { json(): unknown }) => (res.json() as { _id: string }[]).map((p) => p._id);
const follow = async (a: SignedInUser, b: SignedInUser) =>
  expect((await inject(a, 'PATCH', `/api/users/${b.username}/follow`)).statusCode).toBe(200);
const counts = (id: string) =>
  t.db.kysely
    .selectFrom('users')
    .select(['followers_count', 'following_count'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
    .then((r) => [Number(r.followers_count), Number(r.following_count)]);
const notificationsOf = (user: SignedInUser) =>
  t.db.kysely.selectFrom('notifications').select(['actor_id', 'type']).where('user_id', '=', user.id).execute();

/** Every post list a viewer reads, each as the ids it shows. */
async function everyList(viewer: SignedInUser, of: SignedInUser, tag: string) {
  return {
    home: ids(await inject(viewer, 'GET', '/api/posts?feed=following')),
    everyone: ids(await inject(viewer, 'GET', '/api/posts?feed=all')),
    tag: ids(await inject(viewer, 'GET', `/api/posts/tagged?tags=${tag}`)),
    tags: ids(await inject(viewer, 'GET', `/api/posts/tagged?tags=${tag},othertag`)),
    profile: (await inject(viewer, 'GET', `/api/users/${of.username}/posts`)).json(),
  };
}

describe('blocks', () => {
  it('answers the profile with blockedByMe, removes the follows both ways, and refuses self and unknown names', async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    await follow(ann, bob);
    await follow(bob, ann);
    const res = await inject(ann, 'PATCH', `/api/users/${bob.username}/block`);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      _id: bob.id,
      blockedByMe: true,
      mutedByMe: false,
      followedByMe: false,
      followersCount: 0,
      followingCount: 0,
    });
    expect(await counts(ann.id)).toEqual([0, 0]);
    expect(await counts(bob.id)).toEqual([0, 0]);
    // Blocking again changes nothing.
    expect((await inject(ann, 'PATCH', `/api/users/${bob.username}/block`)).json().user.blockedByMe).toBe(true);
    expect(await counts(ann.id)).toEqual([0, 0]);
    // The follow notifications between them are gone too.
    expect(await notificationsOf(ann)).toEqual([]);
    expect(await notificationsOf(bob)).toEqual([]);

    const self = await inject(ann, 'PATCH', `/api/users/${ann.username}/block`);
    expect([self.statusCode, self.json().code]).toEqual([400, 'CannotTargetSelf']);
    expect((await inject(ann, 'PATCH', '/api/users/nobody_here/block')).statusCode).toBe(404);
    expect((await inject(null, 'PATCH', `/api/users/${bob.username}/block`)).statusCode).toBe(401);
  });

  it('hides the blocker from the blocked person (404) and refuses their follows, comments and reactions', async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    const post = await createPost(t.app, ann);
    const comment = await inject(ann, 'POST', `/api/posts/${post._id}/comments`, { message: 'mine' });
    await inject(ann, 'PATCH', `/api/users/${bob.username}/block`);

    expect((await inject(bob, 'GET', `/api/users/${ann.username}`)).statusCode).toBe(404);
    expect((await inject(bob, 'GET', `/api/users/${ann.username}/posts`)).statusCode).toBe(404);
    expect((await inject(bob, 'GET', `/api/users/${ann.username}/followers`)).statusCode).toBe(404);
    expect((await inject(bob, 'GET', `/api/posts/${post._id}`)).statusCode).toBe(404);
    expect((await inject(bob, 'GET', `/api/posts/${post._id}/comments`)).statusCode).toBe(404);
    expect((await inject(bob, 'POST', `/api/posts/${post._id}/comments`, { message: 'hi' })).statusCode).toBe(404);
    expect((await inject(bob, 'PATCH', `/api/posts/${post._id}/like`)).statusCode).toBe(404);
    const commentLike = await inject(bob, 'PATCH', `/api/posts/${post._id}/comments/like`, {
      commentId: comment.json().commentId,
    });
    expect(commentLike.statusCode).toBe(404);
    expect((await inject(bob, 'PATCH', `/api/users/${ann.username}/follow`)).statusCode).toBe(404);
    expect((await inject(bob, 'PATCH', `/api/users/${ann.username}/block`)).statusCode).toBe(404);
    expect((await inject(bob, 'PATCH', `/api/users/${ann.username}/mute`)).statusCode).toBe(404);
    // Nothing was written: no comment, no reaction, no follow.
    const after = (await inject(ann, 'GET', `/api/posts/${post._id}`)).json();
    expect([after.commentsCount, after.likesCount]).toEqual([1, 0]);
    expect(await counts(ann.id)).toEqual([0, 0]);

    // The blocker sees the profile (to unblock from it) but no posts, and must unblock to follow.
    const seen = await inject(ann, 'GET', `/api/users/${bob.username}`);
    expect([seen.statusCode, seen.json().user.blockedByMe]).toEqual([200, true]);
    const refused = await inject(ann, 'PATCH', `/api/users/${bob.username}/follow`);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'UserBlocked']);
  });

  it("keeps each one's posts and comments out of every list of the other", async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    const carol = await signIn(t.app);
    await follow(ann, bob);
    await follow(bob, ann);
    await follow(ann, carol);
    const tag = `blk${Date.now()}`;
    const bobs = await createPost(t.app, bob, { tags: [tag] });
    const anns = await createPost(t.app, ann, { tags: [tag] });
    const carols = await createPost(t.app, carol, { tags: [tag] });
    await inject(bob, 'POST', `/api/posts/${carols._id}/comments`, { message: 'from bob' });
    await inject(ann, 'POST', `/api/posts/${carols._id}/comments`, { message: 'from ann' });
    // Before: each sees the other's post everywhere.
    const before = await everyList(ann, bob, tag);
    expect(before.home).toContain(bobs._id);
    expect(before.everyone).toContain(bobs._id);
    expect(before.tag).toContain(bobs._id);
    expect(before.tags).toContain(bobs._id);

    await inject(ann, 'PATCH', `/api/users/${bob.username}/block`);

    const annSees = await everyList(ann, bob, tag);
    for (const list of [annSees.home, annSees.everyone, annSees.tag, annSees.tags]) {
      expect(list).not.toContain(bobs._id);
      expect(list).toContain(anns._id);
    }
    expect(annSees.home).toContain(carols._id);
    expect(annSees.profile).toEqual([]);
    const bobSees = await everyList(bob, bob, tag);
    for (const list of [bobSees.home, bobSees.everyone, bobSees.tag, bobSees.tags]) {
      expect(list).not.toContain(anns._id);
      expect(list).toContain(bobs._id);
    }
    // A third person's post: its comments hide the other one's, both ways.
    const commentsFor = async (viewer: SignedInUser) =>
      ((await inject(viewer, 'GET', `/api/posts/${carols._id}/comments`)).json() as { message: string }[]).map(
        (c) => c.message,
      );
    expect(await commentsFor(ann)).toEqual(['from ann']);
    expect(await commentsFor(bob)).toEqual(['from bob']);
    expect((await commentsFor(carol)).sort()).toEqual(['from ann', 'from bob']);
    const withComments = (await inject(ann, 'GET', `/api/posts/${carols._id}`)).json();
    expect(withComments.comments.map((c: { message: string }) => c.message)).toEqual(['from ann']);

    // Followers and following lists, and the people search.
    await follow(bob, carol);
    const followersOfCarol = async (viewer: SignedInUser) =>
      ids(await inject(viewer, 'GET', `/api/users/${carol.username}/followers`));
    expect(await followersOfCarol(ann)).toEqual([ann.id]);
    expect(await followersOfCarol(bob)).toEqual([bob.id]);
    expect((await followersOfCarol(carol)).sort()).toEqual([ann.id, bob.id].sort());
    const search = async (viewer: SignedInUser, name: string) =>
      ids(await inject(viewer, 'GET', `/api/users/search?q=${name}`));
    expect(await search(ann, bob.username)).toEqual([]);
    expect(await search(bob, ann.username)).toEqual([]);
    expect(await search(carol, bob.username)).toEqual([bob.id]);

    // The home feed straight from the database (the walk the index stands in for) agrees.
    const queries = homeFeedQueries(t.db.kysely);
    const walked = (await queries.homeFeedPosts(bob.id, null, 50)).map((r) => r.id);
    expect(walked).toContain(bobs._id);
    expect(walked).not.toContain(anns._id);
  });

  it("counts a post's comments as the viewer's list shows them: without those of people blocked either way", async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    const carol = await signIn(t.app);
    const tag = `count${ann.username.slice(-6)}`;
    const anns = await createPost(t.app, ann, { message: 'Ann asks', tags: [tag] });
    await inject(bob, 'POST', `/api/posts/${anns._id}/comments`, { message: 'from bob' });
    await inject(carol, 'POST', `/api/posts/${anns._id}/comments`, { message: 'from carol' });
    /** The count on every read of the post, and the length of its comment list, as `viewer` sees them. */
    const seenBy = async (viewer: SignedInUser) => {
      const one = (await inject(viewer, 'GET', `/api/posts/${anns._id}`)).json() as Post & { comments: unknown[] };
      const listed = async (url: string) =>
        ((await inject(viewer, 'GET', url)).json() as Post[]).find((p) => p._id === anns._id)?.commentsCount;
      const list = (await inject(viewer, 'GET', `/api/posts/${anns._id}/comments`)).json() as unknown[];
      return {
        post: one.commentsCount,
        withComments: one.comments.length,
        everyone: await listed('/api/posts?feed=all'),
        tag: await listed(`/api/posts/tagged?tags=${tag}`),
        profile: await listed(`/api/users/${ann.username}/posts`),
        list: list.length,
      };
    };
    const all = { post: 2, withComments: 2, everyone: 2, tag: 2, profile: 2, list: 2 };
    expect(await seenBy(ann)).toEqual(all);

    // The post's author blocks a commenter: for the author, one comment is left, in the count and the list.
    expect((await inject(ann, 'PATCH', `/api/users/${bob.username}/block`)).statusCode).toBe(200);
    const one = { post: 1, withComments: 1, everyone: 1, tag: 1, profile: 1, list: 1 };
    expect(await seenBy(ann)).toEqual(one);
    // A commenter who blocks a third reader: that reader's count leaves the blocker out too.
    const dan = await signIn(t.app);
    expect((await inject(carol, 'PATCH', `/api/users/${dan.username}/block`)).statusCode).toBe(200);
    expect(await seenBy(dan)).toEqual(one);
    // Nobody else's count changes.
    expect(await seenBy(carol)).toEqual(all);
    // Unblocking counts the comment again.
    expect((await inject(ann, 'PATCH', `/api/users/${bob.username}/unblock`)).statusCode).toBe(200);
    expect(await seenBy(ann)).toEqual(all);
  });

  it('makes a mention of the blocker plain text that notifies nobody', async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    await inject(ann, 'PATCH', `/api/users/${bob.username}/block`);
    const post = await createPost(t.app, bob, { message: `hello @${ann.username}` });
    expect(post.mentions).toEqual([]);
    const own = await createPost(t.app, bob);
    const comment = await inject(bob, 'POST', `/api/posts/${own._id}/comments`, { message: `@${ann.username} hi` });
    expect(comment.json().mentions).toEqual([]);
    // Nor the other way: the blocker's mention of the blocked person notifies them not.
    const back = await createPost(t.app, ann, { message: `about @${bob.username}` });
    expect(back.mentions).toEqual([]);
    expect(await notificationsOf(ann)).toEqual([]);
    expect(await notificationsOf(bob)).toEqual([]);
    const mentions = await t.db.kysely
      .selectFrom('post_mentions')
      .selectAll()
      .where('post_id', '=', post._id)
      .execute();
    expect(mentions).toEqual([]);
  });

  it('lists the blocked people newest first, page by page, and unblocking shows them again', async () => {
    const ann = await signIn(t.app);
    const others = [await signIn(t.app), await signIn(t.app), await signIn(t.app)];
    for (const other of others) await inject(ann, 'PATCH', `/api/users/${other.username}/block`);
    const { items, pages } = await walkPages<{ _id: string; username: string }>(
      t.app,
      ann,
      '/api/users/me/blocks?limit=2',
    );
    expect(items.map((u) => u._id)).toEqual(others.map((o) => o.id).reverse());
    expect(pages).toBe(2);
    expect(ids(await inject(ann, 'GET', '/api/users/me/mutes'))).toEqual([]);
    expect((await inject(null, 'GET', '/api/users/me/blocks')).statusCode).toBe(401);

    const post = await createPost(t.app, others[0]);
    expect(ids(await inject(ann, 'GET', '/api/posts?feed=all'))).not.toContain(post._id);
    const res = await inject(ann, 'PATCH', `/api/users/${others[0].username}/unblock`);
    expect([res.statusCode, res.json().user.blockedByMe]).toEqual([200, false]);
    expect(ids(await inject(ann, 'GET', '/api/posts?feed=all'))).toContain(post._id);
    expect((await inject(others[0], 'GET', `/api/users/${ann.username}`)).statusCode).toBe(200);
    expect(ids(await inject(ann, 'GET', '/api/users/me/blocks'))).toEqual([others[2].id, others[1].id]);
    // Unblocking someone not blocked changes nothing.
    expect((await inject(ann, 'PATCH', `/api/users/${others[0].username}/unblock`)).statusCode).toBe(200);
  });
});

describe('mutes', () => {
  it("takes the muted person's posts out of my feeds but not their profile, and they notify me no more", async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    await follow(ann, bob);
    const tag = `mut${Date.now()}`;
    const post = await createPost(t.app, bob, { tags: [tag] });
    expect((await everyList(ann, bob, tag)).home).toContain(post._id);

    const res = await inject(ann, 'PATCH', `/api/users/${bob.username}/mute`);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ mutedByMe: true, blockedByMe: false, followedByMe: true });
    const lists = await everyList(ann, bob, tag);
    for (const list of [lists.home, lists.everyone, lists.tag, lists.tags]) expect(list).not.toContain(post._id);
    expect(lists.profile.map((p: Post) => p._id)).toEqual([post._id]);
    // Their post itself and its comments still open (a mute is about the feeds).
    expect((await inject(ann, 'GET', `/api/posts/${post._id}`)).statusCode).toBe(200);
    const walked = (await homeFeedQueries(t.db.kysely).homeFeedPosts(ann.id, null, 50)).map((r) => r.id);
    expect(walked).not.toContain(post._id);
    // Bob still sees Ann: a mute is one-sided and silent.
    const annPost = await createPost(t.app, ann);
    expect(ids(await inject(bob, 'GET', '/api/posts?feed=all'))).toContain(annPost._id);

    await inject(bob, 'PATCH', `/api/posts/${annPost._id}/like`);
    await inject(bob, 'POST', `/api/posts/${annPost._id}/comments`, { message: `@${ann.username} nice` });
    expect(await notificationsOf(ann)).toEqual([]);
    expect(ids(await inject(ann, 'GET', '/api/users/me/mutes'))).toEqual([bob.id]);

    const undone = await inject(ann, 'PATCH', `/api/users/${bob.username}/unmute`);
    expect(undone.json().user.mutedByMe).toBe(false);
    expect(ids(await inject(ann, 'GET', '/api/posts?feed=following'))).toContain(post._id);
    expect(ids(await inject(ann, 'GET', '/api/users/me/mutes'))).toEqual([]);
    const self = await inject(ann, 'PATCH', `/api/users/${ann.username}/mute`);
    expect([self.statusCode, self.json().code]).toEqual([400, 'CannotTargetSelf']);
  });

  it('removes the notifications a muted person caused', async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    await follow(bob, ann);
    expect(await notificationsOf(ann)).toHaveLength(1);
    await inject(ann, 'PATCH', `/api/users/${bob.username}/mute`);
    expect(await notificationsOf(ann)).toEqual([]);
    expect(ids(await inject(ann, 'GET', '/api/notifications'))).toEqual([]);
  });
});

describe('suspended users', () => {
  // Through the admin API, as an admin does it.
  const suspend = async (user: SignedInUser, suspended: boolean) => {
    const admin = await signIn(t.app);
    await makeAdmin(t, admin);
    const action = suspended ? 'suspend' : 'unsuspend';
    expect((await inject(admin, 'POST', `/api/admin/users/${user.username}/${action}`)).statusCode).toBe(200);
  };

  it('are hidden from everyone else: profile, posts, comments, lists, notifications, until unsuspended', async () => {
    const ann = await signIn(t.app);
    const sam = await signIn(t.app);
    await follow(ann, sam);
    await follow(sam, ann);
    const tag = `sus${Date.now()}`;
    const post = await createPost(t.app, sam, { tags: [tag] });
    const annsPost = await createPost(t.app, ann);
    await inject(sam, 'POST', `/api/posts/${annsPost._id}/comments`, { message: 'by sam' });
    expect((await inject(ann, 'GET', '/api/notifications')).json()).toHaveLength(2);

    await suspend(sam, true);
    expect((await inject(ann, 'GET', `/api/users/${sam.username}`)).statusCode).toBe(404);
    expect((await inject(ann, 'GET', `/api/users/${sam.username}/posts`)).statusCode).toBe(404);
    expect((await inject(ann, 'GET', `/api/posts/${post._id}`)).statusCode).toBe(404);
    expect((await inject(ann, 'PATCH', `/api/posts/${post._id}/like`)).statusCode).toBe(404);
    const lists = await everyList(ann, ann, tag);
    for (const list of [lists.home, lists.everyone, lists.tag, lists.tags]) expect(list).not.toContain(post._id);
    expect(lists.home).toContain(annsPost._id);
    expect((await inject(ann, 'GET', `/api/posts/${annsPost._id}/comments`)).json()).toEqual([]);
    expect(ids(await inject(ann, 'GET', `/api/users/${ann.username}/followers`))).toEqual([]);
    expect(ids(await inject(ann, 'GET', `/api/users/search?q=${sam.username}`))).toEqual([]);
    expect((await inject(ann, 'GET', '/api/notifications')).json()).toEqual([]);
    const walked = (await homeFeedQueries(t.db.kysely).homeFeedPosts(ann.id, null, 50)).map((r) => r.id);
    expect(walked).not.toContain(post._id);

    await suspend(sam, false);
    expect((await inject(ann, 'GET', `/api/users/${sam.username}`)).statusCode).toBe(200);
    expect(ids(await inject(ann, 'GET', '/api/posts?feed=following'))).toContain(post._id);
    expect((await inject(ann, 'GET', `/api/posts/${annsPost._id}/comments`)).json()).toHaveLength(1);
  });
});
