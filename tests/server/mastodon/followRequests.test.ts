/**
 * Approve followers through the Mastodon client API (issue 70, item 1), driven by masto 8.0.0:
 * `locked` set with update_credentials, a follow that waits (`requested`), the follow requests
 * list, `authorize` and `reject`, the `follow_request` notification, and `remove_from_followers`.
 */
import type { mastodon } from 'masto';
import { type TestApp, createTestApp, signIn } from '../helpers';
import { answerStatus, clientFor, listenOn, userToken } from './oauthFlow';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  url = await listenOn(t);
});
afterAll(async () => t?.close());

async function person(): Promise<{ api: mastodon.rest.Client; id: string }> {
  const user = await signIn(t.app);
  return { api: clientFor(url, await userToken(url, user, 'read write follow')), id: user.id };
}

describe('follow requests through the client API', () => {
  it('locked account: request, list, notification, authorize', async () => {
    const [star, fan] = [await person(), await person()];
    const me = await star.api.v1.accounts.updateCredentials({ locked: true });
    expect(me.locked).toBe(true);
    expect((await fan.api.v1.accounts.$select(star.id).fetch()).locked).toBe(true);

    const asked = await fan.api.v1.accounts.$select(star.id).follow();
    expect(asked).toMatchObject({ following: false, requested: true });
    const [seenByStar] = await star.api.v1.accounts.relationships.fetch({ id: [fan.id] });
    expect(seenByStar).toMatchObject({ followedBy: false, requestedBy: true });
    expect((await star.api.v1.accounts.verifyCredentials()).source.followRequestsCount).toBe(1);

    const waiting = await star.api.v1.followRequests.list();
    expect(waiting.map((a) => a.id)).toEqual([fan.id]);
    const notifications = await star.api.v1.notifications.list();
    expect(notifications.find((n) => n.account.id === fan.id)?.type).toBe('follow_request');

    // Someone else cannot answer it.
    expect(await answerStatus(fan.api.v1.followRequests.$select(fan.id).authorize())).toBe(404);

    const answered = await star.api.v1.followRequests.$select(fan.id).authorize();
    expect(answered).toMatchObject({ followedBy: true, requestedBy: false });
    expect(await fan.api.v1.accounts.$select(star.id).fetch()).toMatchObject({ followersCount: 1 });
    const [seenByFan] = await fan.api.v1.accounts.relationships.fetch({ id: [star.id] });
    expect(seenByFan).toMatchObject({ following: true, requested: false });
    expect(await star.api.v1.followRequests.list()).toEqual([]);
  });

  it('reject, withdraw, and unlock with update_credentials', async () => {
    const [star, fan, other] = [await person(), await person(), await person()];
    await star.api.v1.accounts.updateCredentials({ locked: true });
    await fan.api.v1.accounts.$select(star.id).follow();
    const rejected = await star.api.v1.followRequests.$select(fan.id).reject();
    expect(rejected).toMatchObject({ followedBy: false, requestedBy: false });
    expect(await star.api.v1.followRequests.list()).toEqual([]);

    await fan.api.v1.accounts.$select(star.id).follow();
    const withdrawn = await fan.api.v1.accounts.$select(star.id).unfollow();
    expect(withdrawn).toMatchObject({ following: false, requested: false });

    await other.api.v1.accounts.$select(star.id).follow();
    const unlocked = await star.api.v1.accounts.updateCredentials({ locked: false });
    expect(unlocked).toMatchObject({ locked: false, followersCount: 1 });
    const [seen] = await other.api.v1.accounts.relationships.fetch({ id: [star.id] });
    expect(seen).toMatchObject({ following: true, requested: false });
  });

  it('remove_from_followers ends a follow without a block', async () => {
    const [star, fan] = [await person(), await person()];
    await fan.api.v1.accounts.$select(star.id).follow();
    await star.api.v1.accounts.$select(fan.id).removeFromFollowers();
    const [seen] = await fan.api.v1.accounts.relationships.fetch({ id: [star.id] });
    expect(seen).toMatchObject({ following: false, blockedBy: false });
    expect((await star.api.v1.accounts.$select(star.id).fetch()).followersCount).toBe(0);
    expect(await answerStatus(star.api.v1.accounts.$select(fan.id).removeFromFollowers())).toBe(404);
  });
});
