/**
 * Explore (issue 73): the trend scores against docs/api-decisions.md's worked example, and
 * `GET /api/explore` — trending posts and tags of discoverable people's public posts, per-reader
 * filtering (blocks, mutes), the opt-out, an admin's hiding (and its log line), people to follow.
 * Run on SQLite and PostgreSQL. The kept trends are worked out again (`refresh`) after each set-up.
 */
import { randomUUID } from 'node:crypto';
import type { Audience } from '../../lib/audience';
import { PAGE_LIMIT_DEFAULT } from '../../lib/limits';
import type { Explore, Post } from '../../lib/types';
import { trendScores } from '../../server/explore/scores';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';

const HOUR = 3_600_000;

describe('the trend scores (the worked example of docs/api-decisions.md, "Explore")', () => {
  const now = Date.parse('2026-12-07T12:00:00.000Z');
  const posts = [
    { id: 'a', creatorId: 'ann', createdAt: now - 12 * HOUR, tags: ['sun'] },
    { id: 'b', creatorId: 'bob', createdAt: now - 36 * HOUR, tags: ['sun'] },
    { id: 'c', creatorId: 'carl', createdAt: now - 48 * HOUR, tags: ['sea'] },
  ];
  const interactions = [
    { postId: 'a', userId: 'bob', kind: 'like' as const },
    { postId: 'a', userId: 'carl', kind: 'comment' as const },
    { postId: 'a', userId: 'dave', kind: 'like' as const },
    { postId: 'a', userId: 'dave', kind: 'comment' as const },
    // The author's own comment counts for nothing.
    { postId: 'a', userId: 'ann', kind: 'comment' as const },
    { postId: 'b', userId: 'ann', kind: 'like' as const },
    { postId: 'c', userId: 'ann', kind: 'like' as const },
    { postId: 'c', userId: 'bob', kind: 'like' as const },
  ];
  const scores = trendScores(posts, interactions, now);

  it('scores each post by its distinct people, halving each day of its age; one person is no trend', () => {
    expect(scores.posts.map((p) => [p.id, p.people])).toEqual([
      ['a', 3],
      ['c', 2],
    ]);
    expect(scores.posts[0].score).toBeCloseTo(3.535533906, 9);
    expect(scores.posts[1].score).toBeCloseTo(0.5, 9);
  });

  it('scores each tag by its people once each, at the best their posts give them; three are needed', () => {
    expect(scores.tags.map((t) => [t.tag, t.people, t.posts])).toEqual([
      ['sun', 4, 2],
      ['sea', 3, 1],
    ]);
    expect(scores.tags[0].score).toBeCloseTo(4.242640687, 9);
    expect(scores.tags[1].score).toBeCloseTo(0.75, 9);
    expect(scores.tags[0].history[0]).toEqual({ day: Date.parse('2026-12-07T00:00:00.000Z'), uses: 1, accounts: 1 });
    expect(scores.tags[0].history).toHaveLength(7);
  });

  it('does not make a trend of one person liking a hundred posts', () => {
    const many = Array.from({ length: 100 }, (_, i) => ({
      id: `p${i}`,
      creatorId: `author${i}`,
      createdAt: now - HOUR,
      tags: ['one'],
    }));
    const likes = many.map((p) => ({ postId: p.id, userId: 'fan', kind: 'like' as const }));
    const made = trendScores(many, likes, now);
    expect(made.posts).toEqual([]);
    // The tag has its hundred authors, but the fan counts once in it.
    expect(made.tags[0].people).toBe(101);
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const explore = async (user: SignedInUser | null): Promise<Explore> => {
  const res = await t.app.inject({ method: 'GET', url: '/api/explore', headers: user?.headers ?? {} });
  expect(res.statusCode).toBe(200);
  return res.json() as Explore;
};
const send = async (user: SignedInUser, method: 'PATCH' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
  const res = await t.app.inject({ method, url, headers: user.headers, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res;
};
const like = (user: SignedInUser, id: string) => send(user, 'PATCH', `/api/posts/${id}/like`);
const comment = (user: SignedInUser, id: string) =>
  send(user, 'POST', `/api/posts/${id}/comments`, { message: 'Lovely' });
const users = (n: number) => Promise.all(Array.from({ length: n }, () => signIn(t.app)));
const refresh = () => t.app.ctx.explore.trends.refresh();

/** A post of `author` with a tag of its own, liked by two people and commented on by a third: it trends. */
async function trending(author: SignedInUser, audience?: Audience) {
  const tag = `t${randomUUID().slice(0, 8)}`;
  const post = await createPost(t.app, author, { tags: [tag], ...(audience && { audience }) });
  if (audience) expect(post.audience).toBe(audience);
  const [x, y, z] = await users(3);
  // A post for followers alone: its people follow its author.
  if (audience) for (const fan of [x, y, z]) await send(fan, 'PATCH', `/api/users/${author.username}/follow`);
  await like(x, post._id);
  await like(y, post._id);
  await comment(z, post._id);
  return { post, tag };
}

describe('GET /api/explore', () => {
  it('shows trending posts and tags to visitors and members, highest first', async () => {
    const [ann, bob] = await users(2);
    const { post, tag } = await trending(ann);
    const lesser = await createPost(t.app, bob, { tags: [tag] });
    const [x, y] = await users(2);
    await like(x, lesser._id);
    await like(y, lesser._id);
    await refresh();
    for (const reader of [null, await signIn(t.app)]) {
      const seen = await explore(reader);
      const ids = seen.posts.map((p) => p._id);
      expect(ids).toContain(post._id);
      expect(ids.indexOf(post._id)).toBeLessThan(ids.indexOf(lesser._id));
      expect(seen.tags.find((x2) => x2.tag === tag)).toEqual({ tag, people: 7, posts: 2 });
    }
  });

  it('answers a page of trending posts, the rest in pages after the last one as the feeds do', async () => {
    const [ann, x, y, reader] = await users(4);
    const made: string[] = [];
    for (let i = 0; i < PAGE_LIMIT_DEFAULT + 3; i++) {
      const p = await createPost(t.app, ann);
      for (const fan of [x, y]) await like(fan, p._id);
      made.push(p._id);
    }
    await refresh();
    const first = await t.app.inject({ method: 'GET', url: '/api/explore', headers: reader.headers });
    const shown = (first.json() as Explore).posts.map((p) => p._id);
    expect(shown).toHaveLength(PAGE_LIMIT_DEFAULT);
    const next = /^<([^>]+)>; rel="next"$/.exec(String(first.headers.link))![1];
    expect(next).toBe(`/api/explore/posts?cursor=${shown.at(-1)}&limit=${PAGE_LIMIT_DEFAULT}`);
    const pageAt = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: reader.headers });
      expect(res.statusCode).toBe(200);
      return { ids: (res.json() as Post[]).map((p) => p._id), next: /^<([^>]+)>/.exec(String(res.headers.link))?.[1] };
    };
    const rest: string[] = [];
    for (let url: string | undefined = next; url;) {
      const page = await pageAt(url);
      rest.push(...page.ids);
      url = page.next;
    }
    // Every trending post once, in the ranking's order (the posts of other tests too).
    const all = [...shown, ...rest];
    expect(new Set(all).size).toBe(all.length);
    expect(made.every((id) => all.includes(id))).toBe(true);
    // Visitors page too; a cursor the trends no longer hold ends the list; a cursor that is none is refused.
    expect((await t.app.inject({ method: 'GET', url: next })).json()).toHaveLength(rest.length);
    const gone = await t.app.inject({ method: 'GET', url: `/api/explore/posts?cursor=${randomUUID()}` });
    expect(gone.json()).toEqual([]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/explore/posts?cursor=12' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'InvalidCursor' });
  });

  it('leaves out a post only one person reacted to, and posts not public', async () => {
    const [ann, fan] = await users(2);
    const alone = await createPost(t.app, ann);
    await like(fan, alone._id);
    await comment(fan, alone._id);
    const { post: followersOnly } = await trending(ann, 'followers');
    await refresh();
    const ids = (await explore(null)).posts.map((p) => p._id);
    expect(ids).not.toContain(alone._id);
    expect(ids).not.toContain(followersOnly._id);
  });

  it('leaves out the posts of people who opted out, and suggests them no more', async () => {
    const [ann, newcomer] = await users(2);
    const { post } = await trending(ann);
    await refresh();
    expect((await explore(newcomer)).posts.map((p) => p._id)).toContain(post._id);
    expect((await explore(newcomer)).people.map((p) => p._id)).toContain(ann.id);
    await send(ann, 'PATCH', '/api/users/updateProfile', { discoverable: false });
    // No refresh: the opt-out makes the trends be worked out again.
    const after = await explore(newcomer);
    expect(after.posts.map((p) => p._id)).not.toContain(post._id);
    expect(after.people.map((p) => p._id)).not.toContain(ann.id);
  });

  it("hides a blocked or muted person's posts from the reader alone", async () => {
    const [ann, blocker, muter, other] = await users(4);
    const { post } = await trending(ann);
    await send(blocker, 'PATCH', `/api/users/${ann.username}/block`);
    await send(muter, 'PATCH', `/api/users/${ann.username}/mute`);
    await refresh();
    expect((await explore(blocker)).posts.map((p) => p._id)).not.toContain(post._id);
    expect((await explore(muter)).posts.map((p) => p._id)).not.toContain(post._id);
    expect((await explore(other)).posts.map((p) => p._id)).toContain(post._id);
    expect((await explore(blocker)).people.map((p) => p._id)).not.toContain(ann.id);
  });

  it('suggests people followed by those the reader follows, not those followed already', async () => {
    const [reader, friend, star, known] = await users(4);
    await send(reader, 'PATCH', `/api/users/${friend.username}/follow`);
    await send(reader, 'PATCH', `/api/users/${known.username}/follow`);
    await send(friend, 'PATCH', `/api/users/${star.username}/follow`);
    await send(friend, 'PATCH', `/api/users/${known.username}/follow`);
    const people = (await explore(reader)).people.map((p) => p._id);
    expect(people).toEqual([star.id]);
    // A suggested person's text is held beside their facts: a new bio is new facts, shown at once.
    await send(star, 'PATCH', '/api/users/updateProfile', { description: 'Night skies, mostly' });
    expect((await explore(reader)).people).toMatchObject([{ _id: star.id, description: 'Night skies, mostly' }]);
  });

  it("keeps a reader's suggestions, yet one followed, blocked, muted, suspended or opted out goes at once", async () => {
    const [reader, friend, admin, ...stars] = await users(8);
    await makeAdmin(t, admin);
    await send(reader, 'PATCH', `/api/users/${friend.username}/follow`);
    for (const star of stars) await send(friend, 'PATCH', `/api/users/${star.username}/follow`);
    const suggested = async () => (await explore(reader)).people.map((p) => p._id);
    expect((await suggested()).sort()).toEqual(stars.map((s) => s.id).sort());
    // Kept: one more follow of the friend's shows only when the candidates are worked out again.
    const [later] = await users(1);
    await send(friend, 'PATCH', `/api/users/${later.username}/follow`);
    expect(await suggested()).not.toContain(later.id);

    const [followed, blocked, muted, suspended, optedOut] = stars;
    await send(reader, 'PATCH', `/api/users/${followed.username}/follow`);
    await send(reader, 'PATCH', `/api/users/${blocked.username}/block`);
    await send(reader, 'PATCH', `/api/users/${muted.username}/mute`);
    await send(admin, 'POST', `/api/admin/users/${suspended.username}/suspend`);
    await send(optedOut, 'PATCH', '/api/users/updateProfile', { discoverable: false });
    const after = await suggested();
    for (const star of stars) expect(after).not.toContain(star.id);
  });
});

describe('hiding from the trends', () => {
  it('takes a post or a tag out for everyone, logs it, and shows it again', async () => {
    const [ann, admin, member] = await users(3);
    await makeAdmin(t, admin);
    const { post, tag } = await trending(ann);
    const [b, c] = await users(2);
    const other = await createPost(t.app, b, { tags: [tag] });
    await like(c, other._id);
    await refresh();
    expect((await explore(null)).tags.map((x) => x.tag)).toContain(tag);

    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/explore/hidden/post/${post._id}`,
      headers: member.headers,
    });
    expect(refused.statusCode).toBe(403);
    await send(admin, 'PUT', `/api/admin/explore/hidden/post/${post._id}`);
    await send(admin, 'PUT', `/api/admin/explore/hidden/tag/${encodeURIComponent(`#${tag.toUpperCase()}`)}`);
    const hidden = await explore(null);
    expect(hidden.posts.map((p) => p._id)).not.toContain(post._id);
    expect(hidden.tags.map((x) => x.tag)).not.toContain(tag);
    // Hidden from the trends, not removed: the post is still there.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/posts/${post._id}`, headers: member.headers })).statusCode,
    ).toBe(200);

    // Hiding again changes nothing, and answers what is hidden.
    const again = (await send(admin, 'PUT', `/api/admin/explore/hidden/post/${post._id}`)).json() as {
      subject: string;
    };
    expect(again.subject).toBe(post._id);
    const list = (await send(admin, 'PUT', `/api/admin/explore/hidden/tag/${tag}`)).json() as { kind: string };
    expect(list.kind).toBe('tag');
    const log = (await t.app.inject({ method: 'GET', url: '/api/admin/log', headers: admin.headers })).json() as {
      action: string;
      targetType: string;
      target: string;
    }[];
    expect(log.filter((e) => e.action === 'hideFromTrends').map((e) => e.targetType)).toEqual(
      expect.arrayContaining(['post', 'tag']),
    );
    expect(log.some((e) => e.target === `#${tag}`)).toBe(true);

    await send(admin, 'DELETE', `/api/admin/explore/hidden/post/${post._id}`);
    await send(admin, 'DELETE', `/api/admin/explore/hidden/tag/${tag}`);
    const shown = await explore(null);
    expect(shown.posts.map((p) => p._id)).toContain(post._id);
    expect(shown.tags.map((x) => x.tag)).toContain(tag);
  });

  it('answers 404 for a post that is not there or not hidden, 400 for a tag that is not one', async () => {
    const [admin] = await users(1);
    await makeAdmin(t, admin);
    const at = (method: 'PUT' | 'DELETE', url: string) =>
      t.app.inject({ method, url: `/api/admin/explore/hidden/${url}`, headers: admin.headers });
    expect((await at('PUT', `post/${randomUUID()}`)).statusCode).toBe(404);
    expect((await at('PUT', 'post/nope')).statusCode).toBe(404);
    expect((await at('DELETE', `post/${randomUUID()}`)).statusCode).toBe(404);
    expect((await at('DELETE', 'tag/never')).statusCode).toBe(404);
    expect((await at('PUT', 'tag/%20')).statusCode).toBe(400);
  });
});
