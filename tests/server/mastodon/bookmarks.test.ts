/**
 * Issue 73, item 1: the client API's bookmarks are saved posts. `POST /api/v1/statuses/:id/bookmark`
 * and `unbookmark`, `GET /api/v1/bookmarks` (newest saved first, paged with Link), `bookmarked` on
 * statuses: true for the person who saved the post alone. Through masto.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { mastodon } from 'masto';
import { type SignedInUser, type TestApp, createTestApp, signIn } from '../helpers';
import { answerStatus, clientFor, listenOn, userToken } from './oauthFlow';

const PNG = path.resolve(import.meta.dirname, '../../fixtures/pngsuite/png/basn2c08.png');

async function post(api: mastodon.rest.Client, status: string) {
  const file = new Blob([await readFile(PNG)], { type: 'image/png' });
  const media = await api.v2.media.create({ file, description: 'A test card' });
  return api.v1.statuses.create({ status, mediaIds: [media.id] });
}

let t: TestApp;
let url: string;
let alice: SignedInUser;
let bob: SignedInUser;
let aliceApi: mastodon.rest.Client;
let bobApi: mastodon.rest.Client;
let bobToken: string;
beforeAll(async () => {
  t = await createTestApp();
  url = await listenOn(t);
  alice = await signIn(t.app);
  bob = await signIn(t.app);
  aliceApi = clientFor(url, await userToken(url, alice));
  bobToken = await userToken(url, bob);
  bobApi = clientFor(url, bobToken);
});
afterAll(async () => {
  await t.close();
});

describe('bookmarks', () => {
  it('bookmark and unbookmark a status; bookmarked is true for the bookmarker alone', async () => {
    const status = await post(aliceApi, 'Worth keeping #saved');
    expect(status.bookmarked).toBe(false);
    const marked = await bobApi.v1.statuses.$select(status.id).bookmark();
    expect([marked.id, marked.bookmarked]).toEqual([status.id, true]);
    expect((await bobApi.v1.statuses.$select(status.id).fetch()).bookmarked).toBe(true);
    // The author, and anyone else, never learn of it.
    expect((await aliceApi.v1.statuses.$select(status.id).fetch()).bookmarked).toBe(false);
    expect((await aliceApi.v1.timelines.public.list()).find((s) => s.id === status.id)?.bookmarked).toBe(false);
    expect((await bobApi.v1.timelines.public.list()).find((s) => s.id === status.id)?.bookmarked).toBe(true);
    expect((await bobApi.v1.bookmarks.list()).map((s) => s.id)).toEqual([status.id]);
    expect(await aliceApi.v1.bookmarks.list()).toEqual([]);
    // Twice is once.
    expect((await bobApi.v1.statuses.$select(status.id).bookmark()).bookmarked).toBe(true);

    const unmarked = await bobApi.v1.statuses.$select(status.id).unbookmark();
    expect(unmarked.bookmarked).toBe(false);
    expect(await bobApi.v1.bookmarks.list()).toEqual([]);
  });

  it('lists newest bookmarked first, paged with Link headers', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await post(aliceApi, `Paged ${i} #saved`));
    const carol = await signIn(t.app);
    const carolToken = await userToken(url, carol);
    const carolApi = clientFor(url, carolToken);
    // Bookmarked newest post first: the list is in the order of the bookmarks, not the posts.
    for (const s of [...statuses].reverse()) await carolApi.v1.statuses.$select(s.id).bookmark();
    // Each bookmark's time set apart, so the order does not hang on the clock's resolution.
    for (const [i, s] of statuses.entries())
      await t.db.kysely
        .updateTable('saved_posts')
        .set({ created_at: `2026-01-0${3 - i}T00:00:00.000Z` })
        .where('user_id', '=', carol.id)
        .where('post_id', '=', s.id)
        .execute();

    const first = await fetch(`${url}/api/v1/bookmarks?limit=2`, {
      headers: { authorization: `Bearer ${carolToken}` },
    });
    expect(first.status).toBe(200);
    const link = first.headers.get('link') ?? '';
    expect(link).toMatch(/rel="next"/);
    expect(((await first.json()) as { id: string }[]).map((s) => s.id)).toEqual([statuses[0].id, statuses[1].id]);

    const walked: string[] = [];
    for await (const page of carolApi.v1.bookmarks.list({ limit: 2 })) walked.push(...page.map((s) => s.id));
    expect(walked).toEqual([statuses[0].id, statuses[1].id, statuses[2].id]);
  });

  it('refuses a status one may not see (404), a comment (422), and a token without the scope (403)', async () => {
    const status = await post(aliceApi, 'Blocked away #saved');
    await aliceApi.v1.accounts.$select(bob.id).block();
    expect(await answerStatus(bobApi.v1.statuses.$select(status.id).bookmark())).toBe(404);
    expect(
      await t.db.kysely.selectFrom('saved_posts').select('post_id').where('post_id', '=', status.id).execute(),
    ).toEqual([]);
    await aliceApi.v1.accounts.$select(bob.id).unblock();

    const comment = await aliceApi.v1.statuses.create({ status: 'A reply', inReplyToId: status.id });
    expect(await answerStatus(bobApi.v1.statuses.$select(comment.id).bookmark())).toBe(422);

    const readOnly = clientFor(url, await userToken(url, bob, 'read'));
    expect(await answerStatus(readOnly.v1.statuses.$select(status.id).bookmark())).toBe(403);
    const writeOnly = clientFor(url, await userToken(url, bob, 'write'));
    expect(await answerStatus(Promise.resolve(writeOnly.v1.bookmarks.list()))).toBe(403);
  });
});
