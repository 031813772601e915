/**
 * Issue 73, item 2: following a hashtag. `GET /api/tags` (the viewer's followed tags), `GET
 * /api/tags/{tag}` (`following`), `PUT` / `DELETE /api/tags/{tag}/follow`; the home feed then shows
 * the public posts carrying a followed tag, from anyone (here and kept from elsewhere), once each,
 * with `reason: { tag }` when no followed person brought it, and blocks, mutes and suspensions
 * applied as to the rest of the feed. Run with the caches kept (the kept heads and pages) and off
 * (the database's own merge), on SQLite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import type { Post } from '../../lib/types';
import { newId } from '../../server/domain/ids';
import { createPost, remoteUserRow } from './factories';
import { readZip } from './zip';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';

let kept: TestApp;
let uncached: TestApp;
beforeAll(async () => {
  kept = await createTestApp({ POST_CACHE_MS: '60000', HOME_FEED_SYNC_MS: '60000' });
  await kept.app.ctx.homeFeed.start();
  uncached = await createTestApp({ POST_CACHE_MS: '0' }, { sameDatabaseAs: kept });
});
afterAll(async () => {
  await uncached?.close();
  await kept?.close();
});

type Method = 'GET' | 'PUT' | 'DELETE' | 'PATCH' | 'POST';
const inject = (t: TestApp, user: SignedInUser | null, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });
const tag = () => `t${randomUUID().slice(0, 8)}`;
const followTag = async (user: SignedInUser, name: string) => {
  const res = await inject(kept, user, 'PUT', `/api/tags/${encodeURIComponent(name)}/follow`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { name: string; following: boolean };
};
const home = async (t: TestApp, user: SignedInUser, query = '') => {
  const res = await inject(t, user, 'GET', `/api/posts?feed=following${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Post[];
};
const ids = (posts: Post[]) => posts.map((p) => p._id);

describe('following a tag', () => {
  it('follows, tells the state and lists the tags; unfollowing takes it back; again changes nothing', async () => {
    const ann = await signIn(kept.app);
    expect((await inject(kept, ann, 'GET', '/api/tags/Sunset')).json()).toEqual({ name: 'Sunset', following: false });
    expect(await followTag(ann, '#Sunset')).toEqual({ name: 'Sunset', following: true });
    expect(await followTag(ann, 'sunset')).toEqual({ name: 'sunset', following: true });
    // Any spelling is the one tag; the list keeps the first.
    expect((await inject(kept, ann, 'GET', '/api/tags/SUNSET')).json()).toEqual({ name: 'SUNSET', following: true });
    const listed = (await inject(kept, ann, 'GET', '/api/tags')).json() as { name: string; followedAt: string }[];
    expect(listed.map((x) => x.name)).toEqual(['Sunset']);
    expect(Number.isNaN(Date.parse(listed[0].followedAt))).toBe(false);
    // Nobody else learns of it.
    const bob = await signIn(kept.app);
    expect((await inject(kept, bob, 'GET', '/api/tags')).json()).toEqual([]);
    expect((await inject(kept, bob, 'GET', '/api/tags/sunset')).json()).toEqual({ name: 'sunset', following: false });

    const undone = await inject(kept, ann, 'DELETE', '/api/tags/sunset/follow');
    expect(undone.json()).toEqual({ name: 'sunset', following: false });
    expect((await inject(kept, ann, 'GET', '/api/tags')).json()).toEqual([]);
    expect((await inject(kept, ann, 'DELETE', '/api/tags/sunset/follow')).statusCode).toBe(200);
  });

  it('needs a session (401); a bad tag is 400 InvalidTag; past 100 tags is 409 TooManyFollowedTags', async () => {
    for (const [method, url] of [
      ['GET', '/api/tags'],
      ['GET', '/api/tags/sun'],
      ['PUT', '/api/tags/sun/follow'],
      ['DELETE', '/api/tags/sun/follow'],
    ] as const)
      expect((await inject(kept, null, method, url)).statusCode, `${method} ${url}`).toBe(401);
    const ann = await signIn(kept.app);
    for (const bad of ['no%20space', 'bang!', '%23', 'x'.repeat(31)]) {
      for (const [method, url] of [
        ['GET', `/api/tags/${bad}`],
        ['PUT', `/api/tags/${bad}/follow`],
        ['DELETE', `/api/tags/${bad}/follow`],
      ] as const) {
        const res = await inject(kept, ann, method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        expect(res.json().code).toBe('InvalidTag');
      }
    }
    expect((await inject(kept, ann, 'GET', '/api/tags')).json()).toEqual([]);

    const at = new Date().toISOString();
    await kept.db.kysely
      .insertInto('followed_tags')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          id: newId(),
          user_id: ann.id,
          tag: `many${i}`,
          name: `many${i}`,
          created_at: at,
        })),
      )
      .execute();
    const refused = await inject(kept, ann, 'PUT', '/api/tags/onemore/follow');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('TooManyFollowedTags');
    expect((await inject(kept, ann, 'GET', '/api/tags/onemore')).json().following).toBe(false);
    // One already followed is no new one.
    expect((await inject(kept, ann, 'PUT', '/api/tags/many7/follow')).statusCode).toBe(200);
  });

  it('goes with the account, and is in the data export (tags.json)', async () => {
    const ann = await signIn(kept.app);
    await followTag(ann, 'Exported');
    const zip = await readZip((await inject(kept, ann, 'GET', '/api/users/me/export')).rawPayload);
    const tags = JSON.parse(zip.get('tags.json')!.toString('utf8')) as { name: string; followedAt: string }[];
    expect(tags.map((x) => x.name)).toEqual(['Exported']);
    expect((await inject(kept, ann, 'DELETE', '/api/users/me', { password: ann.password })).statusCode).toBe(200);
    const rows = await kept.db.kysely.selectFrom('followed_tags').selectAll().where('user_id', '=', ann.id).execute();
    expect(rows).toEqual([]);
  });
});

describe.each([
  ['kept', () => kept],
  ['read from the database', () => uncached],
])('the home feed with followed tags (%s)', (_, app) => {
  it("shows a followed tag's public posts from anyone, once each, with the reason when no person brought it", async () => {
    const t = app();
    const [fan, star, stranger] = [await signIn(kept.app), await signIn(kept.app), await signIn(kept.app)];
    const name = tag();
    await inject(kept, fan, 'PATCH', `/api/users/${star.username}/follow`);
    const own = await createPost(kept.app, fan, { tags: [tag()] });
    const byStar = await createPost(kept.app, star, { tags: [name] });
    const byStranger = await createPost(kept.app, stranger, { tags: [name.toUpperCase()] });
    const followersOnly = await createPost(kept.app, stranger, { tags: [name], audience: 'followers' });
    const untagged = await createPost(kept.app, stranger, { tags: [tag()] });
    // Read before and after: a kept page takes the follow.
    for (let i = 0; i < 3; i++) await home(t, fan);
    await followTag(fan, name);
    const feed = await home(t, fan);
    expect(ids(feed)).toEqual([byStranger._id, byStar._id, own._id]);
    expect(ids(feed)).not.toContain(followersOnly._id);
    expect(ids(feed)).not.toContain(untagged._id);
    expect(feed[0].reason).toEqual({ tag: name.toUpperCase() });
    // By a followed person: there for them, no reason.
    expect(feed[1]).not.toHaveProperty('reason');
    expect(feed[2]).not.toHaveProperty('reason');
    // Nobody else's feed or lists carry a reason.
    const everyone = (await inject(t, fan, 'GET', '/api/posts?feed=all')).json() as Post[];
    expect(everyone.some((p) => 'reason' in p)).toBe(false);
    const theirs = (await inject(t, stranger, 'GET', `/api/posts/${byStranger._id}`)).json() as Post;
    expect(theirs).not.toHaveProperty('reason');

    // A new one comes on top; paged, each comes once.
    const newer = await createPost(kept.app, stranger, { tags: [name] });
    expect(ids(await home(t, fan))[0]).toBe(newer._id);
    const first = await home(t, fan, '&limit=2');
    const second = await home(t, fan, `&limit=2&cursor=${first[1]._id}`);
    expect([...ids(first), ...ids(second)]).toEqual([newer._id, byStranger._id, byStar._id, own._id]);
  });

  it('shows the posts kept from elsewhere too', async () => {
    const t = app();
    const fan = await signIn(kept.app);
    const name = tag();
    const row = remoteUserRow(`${tag()}.example`);
    await kept.db.kysely.insertInto('users').values(row).execute();
    const uri = `https://${row.domain}/notes/${randomUUID()}`;
    const { id } = await kept.app.ctx.posts.importRemote(
      { id: row.id, username: row.username, role: 'member', sessionId: '' },
      {
        ...{ uri, url: uri, message: 'From elsewhere', tags: [name], image: '/remote-image-missing.svg' },
        ...{ mediaId: null, alt: '', sensitive: false, spoiler: '', mentionedIds: [] },
        published: new Date().toISOString(),
      },
    );
    await followTag(fan, name);
    const feed = await home(t, fan);
    expect(ids(feed)).toEqual([id]);
    expect(feed[0].reason).toEqual({ tag: name });
  });

  it('leaves out the people blocked either way, muted or suspended', async () => {
    const t = app();
    const [fan, blocked, blocker, muted, suspended, shown] = await Promise.all(
      Array.from({ length: 6 }, () => signIn(kept.app)),
    );
    const name = tag();
    const posted: Record<string, Post> = {};
    for (const [key, who] of Object.entries({ blocked, blocker, muted, suspended, shown }))
      posted[key] = await createPost(kept.app, who, { tags: [name] });
    await followTag(fan, name);
    for (let i = 0; i < 3; i++) await home(t, fan);
    expect(ids(await home(t, fan))).toHaveLength(5);
    await inject(kept, fan, 'PATCH', `/api/users/${blocked.username}/block`);
    await inject(kept, blocker, 'PATCH', `/api/users/${fan.username}/block`);
    await inject(kept, fan, 'PATCH', `/api/users/${muted.username}/mute`);
    const admin = await signIn(kept.app);
    await makeAdmin(kept, admin);
    const suspension = await inject(kept, admin, 'POST', `/api/admin/users/${suspended.username}/suspend`, {
      note: 'spam',
    });
    expect(suspension.statusCode, suspension.body).toBeLessThan(300);
    expect(ids(await home(t, fan))).toEqual([posted.shown._id]);
  });

  it('stops showing the tag once unfollowed (the followed people stay)', async () => {
    const t = app();
    const [fan, star, stranger] = [await signIn(kept.app), await signIn(kept.app), await signIn(kept.app)];
    const name = tag();
    await inject(kept, fan, 'PATCH', `/api/users/${star.username}/follow`);
    const byStar = await createPost(kept.app, star, { tags: [name] });
    await createPost(kept.app, stranger, { tags: [name] });
    await followTag(fan, name);
    for (let i = 0; i < 3; i++) await home(t, fan);
    await inject(kept, fan, 'DELETE', `/api/tags/${name}/follow`);
    expect(ids(await home(t, fan))).toEqual([byStar._id]);
  });
});
