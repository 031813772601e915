/**
 * The client API (issue 33), second part: `favourited_by`, comments by their own status id,
 * notifications' `clear` and `dismiss`, `GET media/:id` until processed, and the rate limits'
 * `X-RateLimit-*` headers with a 429 `{ error }`. Through `masto` where it has the call.
 */
import { type SignedInUser, type TestApp, createTestApp, signIn } from '../helpers';
import {
  type ClientUser,
  answerStatus,
  clientUser,
  clientsOn,
  listenOn,
  postStatus,
  uploadPhoto,
  userToken,
} from './oauthFlow';

describe('with the usual limits', () => {
  let t: TestApp;
  let url: string;
  let alice: ClientUser;
  let bob: ClientUser;
  beforeAll(async () => {
    t = await createTestApp();
    ({
      url,
      users: [alice, bob],
    } = await clientsOn(t, 2));
  });
  afterAll(async () => {
    await t.close();
  });

  it('favourited_by lists the likers, paged with Link; a blocked liker is left out', async () => {
    const status = await postStatus(alice.api, 'Liked by many #likes');
    const likers: SignedInUser[] = [bob];
    for (let i = 0; i < 3; i++) likers.push(await signIn(t.app));
    for (const liker of likers)
      await t.app.inject({ method: 'PATCH', url: `/api/posts/${status.id}/like`, headers: liker.headers });
    const first = await fetch(`${url}/api/v1/statuses/${status.id}/favourited_by?limit=2`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as { id: string }[];
    expect(page1).toHaveLength(2);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')![1];
    const page2 = (await (await fetch(next, { headers: { authorization: `Bearer ${alice.token}` } })).json()) as {
      id: string;
    }[];
    expect([...page1, ...page2].map((a) => a.id).sort()).toEqual(likers.map((u) => u.id).sort());

    // Through masto, after alice blocks one liker: that person is not listed.
    await alice.api.v1.accounts.$select(likers[3].id).block();
    const listed = await alice.api.v1.statuses.$select(status.id).favouritedBy.list();
    expect(listed.map((a) => a.id).sort()).toEqual(
      likers
        .slice(0, 3)
        .map((u) => u.id)
        .sort(),
    );
    const unknown = alice.api.v1.statuses.$select('0190a0a0-0000-7000-8000-000000000000').favouritedBy.list();
    expect(await answerStatus(Promise.resolve(unknown))).toBe(404);
  });

  it('a comment is a status by its own id: read, favourited, its context, deleted', async () => {
    const status = await postStatus(alice.api, 'Comment on me #threads');
    const comment = await bob.api.v1.statuses.create({ status: 'First!', inReplyToId: status.id });
    const read = await alice.api.v1.statuses.$select(comment.id).fetch();
    expect(read).toMatchObject({ id: comment.id, inReplyToId: status.id, account: { id: bob.id }, text: 'First!' });

    expect(await alice.api.v1.statuses.$select(comment.id).favourite()).toMatchObject({
      favourited: true,
      favouritesCount: 1,
    });
    // Twice is still once; unfavourite takes it back.
    expect(await alice.api.v1.statuses.$select(comment.id).favourite()).toMatchObject({ favouritesCount: 1 });
    expect(await alice.api.v1.statuses.$select(comment.id).unfavourite()).toMatchObject({
      favourited: false,
      favouritesCount: 0,
    });
    const context = await alice.api.v1.statuses.$select(comment.id).context.fetch();
    expect(context.ancestors.map((s) => s.id)).toEqual([status.id]);
    expect(context.descendants).toEqual([]);

    // Someone else's comment on someone else's post: the services say no (403).
    const carol = await clientUser(t, url);
    expect(await answerStatus(carol.api.v1.statuses.$select(comment.id).remove())).toBe(403);
    const deleted = await bob.api.v1.statuses.$select(comment.id).remove();
    expect(deleted).toMatchObject({ id: comment.id, text: 'First!' });
    expect(await answerStatus(alice.api.v1.statuses.$select(comment.id).fetch())).toBe(404);
  });

  it('notifications: dismiss removes one, clear all of them', async () => {
    const carol = await clientUser(t, url);
    await alice.api.v1.accounts.$select(carol.id).follow();
    await bob.api.v1.accounts.$select(carol.id).follow();
    const listed = await carol.api.v1.notifications.list();
    expect(listed).toHaveLength(2);
    await carol.api.v1.notifications.$select(listed[0].id).dismiss();
    expect((await carol.api.v1.notifications.list()).map((n) => n.id)).toEqual([listed[1].id]);
    expect(await answerStatus(carol.api.v1.notifications.$select(listed[0].id).dismiss())).toBe(404);
    // Someone else's notification is not theirs to dismiss.
    expect(await answerStatus(alice.api.v1.notifications.$select(listed[1].id).dismiss())).toBe(404);
    await carol.api.v1.notifications.clear();
    expect(await carol.api.v1.notifications.list()).toEqual([]);
    const unread = await t.app.inject({ method: 'GET', url: '/api/notifications/unread', headers: carol.headers });
    expect(unread.json()).toEqual({ count: 0 });
  });

  it('GET media/:id answers the attachment once processed (206 with url null before)', async () => {
    const media = await uploadPhoto(alice.api, 'A test card');
    const seen: number[] = [];
    let body: { url: string | null; preview_url: string } | null = null;
    for (let i = 0; i < 100 && seen.at(-1) !== 200; i++) {
      const res = await fetch(`${url}/api/v1/media/${media.id}`, {
        headers: { authorization: `Bearer ${alice.token}` },
      });
      seen.push(res.status);
      body = (await res.json()) as typeof body;
      if (res.status === 206) expect(body!.url).toBeNull();
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen.at(-1)).toBe(200);
    expect(seen.every((status) => status === 200 || status === 206)).toBe(true);
    expect(body!.url).toBe(media.url);
    expect(body!.preview_url).toMatch(/\.webp$/);
  });
});

describe('rate limits', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_WRITES_PER_USER: '3' });
    url = await listenOn(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("counts writes per token's user, with X-RateLimit-* headers, and refuses with 429 { error }", async () => {
    const dave = await signIn(t.app);
    const erin = await signIn(t.app);
    const token = await userToken(url, dave);
    const follow = (token: string) =>
      fetch(`${url}/api/v1/accounts/${erin.id}/follow`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await follow(token);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(Date.parse(res.headers.get('x-ratelimit-reset')!)).toBeGreaterThan(Date.now() - 1000);
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await follow(token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: string };
    expect(body.error).toMatch(/^Too many requests, try again in \d+ seconds$/);
    // The count is the user's, whatever the token: another app of dave's is refused too.
    const other = await userToken(url, dave);
    expect((await follow(other)).status).toBe(429);
  });
});
