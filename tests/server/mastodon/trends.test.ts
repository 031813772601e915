/**
 * Issue 73, item 5: Explore in the client API, through masto. `GET /api/v1/trends/tags` (Tag with
 * seven days of history) and `…/trends/statuses` (open without a token), `GET /api/v2/suggestions`
 * (a token with `read`): people followed by those one follows, as Mastodon's Suggestion.
 */
import { createRestAPIClient } from 'masto';
import { type TestApp, createTestApp } from '../helpers';
import { type ClientUser, clientsOn, postStatus } from './oauthFlow';

let t: TestApp;
let url: string;
let alice: ClientUser;
let bob: ClientUser;
let carl: ClientUser;
let dave: ClientUser;
beforeAll(async () => {
  t = await createTestApp();
  ({
    url,
    users: [alice, bob, carl, dave],
  } = await clientsOn(t, 4));
});
afterAll(async () => {
  await t.close();
});

describe('trends', () => {
  it('lists trending statuses and tags, to anyone, paged by offset', async () => {
    const status = await postStatus(alice.api, 'Morning light #dawnlight');
    await bob.api.v1.statuses.$select(status.id).favourite();
    await carl.api.v1.statuses.$select(status.id).favourite();
    await dave.api.v1.statuses.$select(status.id).favourite();
    await t.app.ctx.explore.trends.refresh();

    const visitor = createRestAPIClient({ url });
    const statuses = await visitor.v1.trends.statuses.list();
    expect(statuses.map((s) => s.id)).toEqual([status.id]);
    expect(statuses[0].account.acct).toBe(alice.username);

    const tags = await visitor.v1.trends.tags.list();
    expect(tags.map((x) => x.name)).toEqual(['dawnlight']);
    expect(tags[0].url).toBe(`${url}/tagged/dawnlight`);
    const history = tags[0].history ?? [];
    expect(history).toHaveLength(7);
    // Days start at midnight UTC, newest first; the one use is on one of them (today, unless midnight passed).
    const days = history.map((d) => Number(d.day));
    expect(days.every((d, i) => d % 86_400 === 0 && (i === 0 || days[i - 1] - d === 86_400))).toBe(true);
    expect(history.filter((d) => d.uses !== '0')).toEqual([expect.objectContaining({ uses: '1', accounts: '1' })]);
    for (const list of ['tags', 'statuses'])
      expect(await (await fetch(`${url}/api/v1/trends/${list}?offset=1`)).json()).toEqual([]);

    const bad = await fetch(`${url}/api/v1/trends/statuses?limit=0`);
    expect(bad.status).toBe(400);
    expect(Object.keys(await bad.json())).toEqual(['error']);
  });

  it('suggests people followed by those one follows, as Suggestions; a token is needed', async () => {
    await alice.api.v1.accounts.$select(bob.id).follow();
    await bob.api.v1.accounts.$select(dave.id).follow();
    const suggested = await alice.api.v2.suggestions.list();
    expect(suggested.map((s) => [s.source, s.sources, s.account.id])).toEqual([
      ['past_interactions', ['friends_of_friends'], dave.id],
    ]);
    // Someone who follows nobody: the recently active (alice, who posted above).
    const newcomer = await carl.api.v2.suggestions.list();
    expect(newcomer.map((s) => [s.source, s.sources])).toContainEqual(['global', ['most_interactions']]);
    expect(newcomer.map((s) => s.account.id)).toContain(alice.id);
    const anonymous = await fetch(`${url}/api/v2/suggestions`);
    expect(anonymous.status).toBe(401);
  });
});

describe('discoverable', () => {
  it("is each account's own setting, changed through update_credentials and shown to others", async () => {
    expect((await carl.api.v1.accounts.verifyCredentials()).discoverable).toBe(true);
    const changed = await carl.api.v1.accounts.updateCredentials({ discoverable: false });
    expect(changed.discoverable).toBe(false);
    expect((await alice.api.v1.accounts.$select(carl.id).fetch()).discoverable).toBe(false);
    expect((await alice.api.v1.accounts.$select(bob.id).fetch()).discoverable).toBe(true);
    // Not discoverable: no longer suggested.
    await dave.api.v1.accounts.$select(alice.id).follow();
    await alice.api.v1.accounts.$select(carl.id).follow();
    const suggested = (await dave.api.v2.suggestions.list()).map((s) => s.account.id);
    expect(suggested).toContain(bob.id);
    expect(suggested).not.toContain(carl.id);
    await carl.api.v1.accounts.updateCredentials({ discoverable: true });
    expect((await alice.api.v1.accounts.$select(carl.id).fetch()).discoverable).toBe(true);
  });
});
