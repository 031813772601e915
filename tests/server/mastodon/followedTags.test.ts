/**
 * Issue 73, item 5: followed hashtags in the client API. `GET /api/v1/followed_tags` (newest
 * followed first, paged with Link), `GET /api/v1/tags/:name` and `POST .../follow` / `unfollow`
 * (Tag with `following`), `following` on v2 search's hashtags, and the home timeline then carrying
 * the tag's public statuses. Through masto.
 */
import { createStreamingAPIClient } from 'masto';
import { type TestApp, createTestApp } from '../helpers';
import { until } from './streamingSocket';
import {
  type ClientUser,
  answerStatus,
  clientFor,
  clientUser,
  clientsOn,
  postStatus,
  uploadPhoto,
  userToken,
} from './oauthFlow';

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

describe('followed tags', () => {
  it('follow and unfollow a tag; its statuses join the home timeline; search tells following', async () => {
    const status = await postStatus(alice.api, 'Evening light #Sunset');
    expect(await bob.api.v1.tags.$select('sunset').fetch()).toMatchObject({ name: 'sunset', following: false });
    const followed = await bob.api.v1.tags.$select('Sunset').follow();
    expect(followed).toMatchObject({ name: 'Sunset', following: true, url: `${url}/tagged/Sunset` });
    expect((await bob.api.v1.tags.$select('SUNSET').fetch()).following).toBe(true);
    expect((await bob.api.v1.followedTags.list()).map((x) => [x.name, x.following])).toEqual([['Sunset', true]]);
    expect((await bob.api.v1.timelines.home.list()).map((s) => s.id)).toContain(status.id);
    const found = await bob.api.v2.search.list({ q: '#sunset', type: 'hashtags' });
    expect(found.hashtags.map((x) => [x.name, x.following])).toEqual([['sunset', true]]);
    // Nobody else's.
    expect(await alice.api.v1.followedTags.list()).toEqual([]);
    expect((await alice.api.v1.tags.$select('sunset').fetch()).following).toBe(false);

    expect((await bob.api.v1.tags.$select('sunset').unfollow()).following).toBe(false);
    expect(await bob.api.v1.followedTags.list()).toEqual([]);
    expect((await bob.api.v1.timelines.home.list()).map((s) => s.id)).not.toContain(status.id);
  });

  it("the user stream sends a followed tag's new public post, and not a followers-only one", async () => {
    const carol = await clientUser(t, url);
    await carol.api.v1.tags.$select('streamed').follow();
    const streamingUrl = (await carol.api.v1.instance.fetch()).urls.streamingApi;
    const streaming = createStreamingAPIClient({
      streamingApiUrl: streamingUrl,
      accessToken: carol.token,
      retry: false,
    });
    const subscription = streaming.user.subscribe();
    const updates: string[] = [];
    const reading = (async () => {
      for await (const event of subscription) if (event.event === 'update') updates.push(event.payload.id);
    })();
    try {
      await until(() => t.app.clientStreams.subscriptionsOf(carol.id) === 1, 'the subscription');
      const photo = await uploadPhoto(alice.api);
      const hidden = await alice.api.v1.statuses.create({
        ...{ status: 'Only followers #streamed', visibility: 'private' },
        mediaIds: [photo.id],
      });
      const shown = await postStatus(alice.api, 'For everyone #streamed');
      await until(() => updates.includes(shown.id), 'the update');
      // Sent in order: the earlier one would have come first.
      expect(updates).not.toContain(hidden.id);
    } finally {
      subscription.unsubscribe();
      streaming.close();
      await reading.catch(() => undefined);
    }
  });

  it('lists newest followed first, paged with Link headers', async () => {
    const carol = await clientUser(t, url);
    for (const name of ['first', 'second', 'third']) await carol.api.v1.tags.$select(name).follow();
    const page = await fetch(`${url}/api/v1/followed_tags?limit=2`, {
      headers: { authorization: `Bearer ${carol.token}` },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('link') ?? '').toMatch(/rel="next"/);
    expect(((await page.json()) as { name: string }[]).map((x) => x.name)).toEqual(['third', 'second']);
    const walked: string[] = [];
    for await (const tags of carol.api.v1.followedTags.list({ limit: 2 })) walked.push(...tags.map((x) => x.name));
    expect(walked).toEqual(['third', 'second', 'first']);
  });

  it('refuses a bad tag (400) and a token without the scope (403)', async () => {
    expect(await answerStatus(bob.api.v1.tags.$select('no space').follow())).toBe(400);
    const readOnly = clientFor(url, await userToken(url, bob, 'read'));
    expect(await answerStatus(readOnly.v1.tags.$select('sunset').follow())).toBe(403);
    const writeOnly = clientFor(url, await userToken(url, bob, 'write'));
    expect(await answerStatus(Promise.resolve(writeOnly.v1.followedTags.list()))).toBe(403);
  });
});
