/**
 * Issue 73, item 1: the client API's bookmarks are saved posts. `POST /api/v1/statuses/:id/bookmark`
 * and `unbookmark`, `GET /api/v1/bookmarks` (newest saved first, paged with Link), `bookmarked` on
 * statuses: true for the person who saved the post alone. Through masto.
 */
import { type TestApp, createTestApp } from '../helpers';
import { type ClientUser, answerStatus, clientFor, clientUser, clientsOn, postStatus, userToken } from './oauthFlow';

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

describe('bookmarks', () => {
  it('bookmark and unbookmark a status; bookmarked is true for the bookmarker alone', async () => {
    const status = await postStatus(alice.api, 'Worth keeping #saved');
    expect(status.bookmarked).toBe(false);
    const marked = await bob.api.v1.statuses.$select(status.id).bookmark();
    expect([marked.id, marked.bookmarked]).toEqual([status.id, true]);
    expect((await bob.api.v1.statuses.$select(status.id).fetch()).bookmarked).toBe(true);
    // The author, and anyone else, never learn of it.
    expect((await alice.api.v1.statuses.$select(status.id).fetch()).bookmarked).toBe(false);
    expect((await alice.api.v1.timelines.public.list()).find((s) => s.id === status.id)?.bookmarked).toBe(false);
    expect((await bob.api.v1.timelines.public.list()).find((s) => s.id === status.id)?.bookmarked).toBe(true);
    expect((await bob.api.v1.bookmarks.list()).map((s) => s.id)).toEqual([status.id]);
    expect(await alice.api.v1.bookmarks.list()).toEqual([]);
    // Twice is once.
    expect((await bob.api.v1.statuses.$select(status.id).bookmark()).bookmarked).toBe(true);

    const unmarked = await bob.api.v1.statuses.$select(status.id).unbookmark();
    expect(unmarked.bookmarked).toBe(false);
    expect(await bob.api.v1.bookmarks.list()).toEqual([]);
  });

  it('lists newest bookmarked first, paged with Link headers', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await postStatus(alice.api, `Paged ${i} #saved`));
    const carol = await clientUser(t, url);
    // Bookmarked newest post first: the list is in the order of the bookmarks, not the posts.
    for (const s of [...statuses].reverse()) await carol.api.v1.statuses.$select(s.id).bookmark();
    // Each bookmark's time set apart, so the order does not hang on the clock's resolution.
    for (const [i, s] of statuses.entries())
      await t.db.kysely
        .updateTable('saved_posts')
        .set({ created_at: `2026-01-0${3 - i}T00:00:00.000Z` })
        .where('user_id', '=', carol.id)
        .where('post_id', '=', s.id)
        .execute();

    const first = await fetch(`${url}/api/v1/bookmarks?limit=2`, {
      headers: { authorization: `Bearer ${carol.token}` },
    });
    expect(first.status).toBe(200);
    const link = first.headers.get('link') ?? '';
    expect(link).toMatch(/rel="next"/);
    expect(((await first.json()) as { id: string }[]).map((s) => s.id)).toEqual([statuses[0].id, statuses[1].id]);

    const walked: string[] = [];
    for await (const page of carol.api.v1.bookmarks.list({ limit: 2 })) walked.push(...page.map((s) => s.id));
    expect(walked).toEqual([statuses[0].id, statuses[1].id, statuses[2].id]);
  });

  it('refuses a status one may not see (404), a comment (422), and a token without the scope (403)', async () => {
    const status = await postStatus(alice.api, 'Blocked away #saved');
    await alice.api.v1.accounts.$select(bob.id).block();
    expect(await answerStatus(bob.api.v1.statuses.$select(status.id).bookmark())).toBe(404);
    expect(
      await t.db.kysely.selectFrom('saved_posts').select('post_id').where('post_id', '=', status.id).execute(),
    ).toEqual([]);
    await alice.api.v1.accounts.$select(bob.id).unblock();

    const comment = await alice.api.v1.statuses.create({ status: 'A reply', inReplyToId: status.id });
    expect(await answerStatus(bob.api.v1.statuses.$select(comment.id).bookmark())).toBe(422);

    const readOnly = clientFor(url, await userToken(url, bob, 'read'));
    expect(await answerStatus(readOnly.v1.statuses.$select(status.id).bookmark())).toBe(403);
    const writeOnly = clientFor(url, await userToken(url, bob, 'write'));
    expect(await answerStatus(Promise.resolve(writeOnly.v1.bookmarks.list()))).toBe(403);
  });
});
