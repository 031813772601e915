/**
 * Approve followers (issue 70, item 1): a follow of someone who approves followers is a request
 * they approve or reject; the requester withdraws it; counts and the home feed count approved
 * follows only; turning the setting off approves the waiting ones; a follower can be removed.
 */
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (user: SignedInUser, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: user.headers, payload });
const profile = async (viewer: SignedInUser, of: SignedInUser) =>
  (await call(viewer, 'GET', `/api/users/${of.username}`)).json().user;
const requests = async (user: SignedInUser) => (await call(user, 'GET', '/api/follow-requests')).json();
const count = async (user: SignedInUser) => (await call(user, 'GET', '/api/follow-requests/count')).json().count;
const home = async (user: SignedInUser) =>
  ((await call(user, 'GET', '/api/posts?feed=following')).json() as { _id: string }[]).map((p) => p._id);
const notifications = async (user: SignedInUser) =>
  ((await call(user, 'GET', '/api/notifications')).json() as { type: string; actor: { username: string } }[]).map(
    (n) => `${n.type}:${n.actor.username}`,
  );

/** A person who approves followers. */
async function lockedPerson() {
  const star = await signIn(t.app);
  const res = await call(star, 'PATCH', '/api/users/updateProfile', { approveFollowers: true });
  expect(res.statusCode).toBe(200);
  expect(res.json().user.approveFollowers).toBe(true);
  return star;
}

describe('approve followers', () => {
  it('is off by default: a follow is a follow', async () => {
    const [fan, star] = [await signIn(t.app), await signIn(t.app)];
    expect((await call(star, 'GET', '/api/auth/getLoggedUser')).json().approveFollowers ?? false).toBe(false);
    const followed = (await call(fan, 'PATCH', `/api/users/${star.username}/follow`)).json().user;
    expect(followed).toMatchObject({ followedByMe: true, followRequestedByMe: false, approveFollowers: false });
    expect(await count(star)).toBe(0);
  });

  it('a request waits: listed, counted, notified, not a follow; approval makes it one', async () => {
    const star = await lockedPerson();
    const fan = await signIn(t.app);
    const p = await createPost(t.app, star);
    const asked = (await call(fan, 'PATCH', `/api/users/${star.username}/follow`)).json().user;
    expect(asked).toMatchObject({ followedByMe: false, followRequestedByMe: true, approveFollowers: true });
    expect(await profile(fan, star)).toMatchObject({ followRequestedByMe: true, followersCount: 0 });
    expect((await profile(star, fan)).followingCount).toBe(0);
    expect(await home(fan)).not.toContain(p._id);
    expect(await count(star)).toBe(1);
    expect((await requests(star)).map((r: { username: string }) => r.username)).toEqual([fan.username]);
    expect(await notifications(star)).toContain(`followRequest:${fan.username}`);
    // People lists say Requested too (search here).
    const [found] = (await call(fan, 'GET', `/api/users/search?q=${star.username}`)).json();
    expect(found).toMatchObject({ username: star.username, followedByMe: false, followRequestedByMe: true });
    // Asking twice keeps one request.
    await call(fan, 'PATCH', `/api/users/${star.username}/follow`);
    expect(await count(star)).toBe(1);

    expect((await call(star, 'POST', `/api/follow-requests/${fan.id}/approve`)).statusCode).toBe(204);
    expect(await profile(fan, star)).toMatchObject({
      followedByMe: true,
      followRequestedByMe: false,
      followersCount: 1,
    });
    expect((await profile(star, fan)).followingCount).toBe(1);
    expect(await home(fan)).toContain(p._id);
    expect(await count(star)).toBe(0);
    expect(await requests(star)).toEqual([]);
    // Answered: approving again finds nothing.
    expect((await call(star, 'POST', `/api/follow-requests/${fan.id}/approve`)).statusCode).toBe(404);
  });

  it('rejected: no follow, the request gone; the requester may ask again', async () => {
    const star = await lockedPerson();
    const fan = await signIn(t.app);
    await call(fan, 'PATCH', `/api/users/${star.username}/follow`);
    expect((await call(star, 'POST', `/api/follow-requests/${fan.id}/reject`)).statusCode).toBe(204);
    expect(await profile(fan, star)).toMatchObject({
      followedByMe: false,
      followRequestedByMe: false,
      followersCount: 0,
    });
    expect(await count(star)).toBe(0);
    expect(await notifications(star)).not.toContain(`followRequest:${fan.username}`);
    expect((await call(fan, 'PATCH', `/api/users/${star.username}/follow`)).json().user.followRequestedByMe).toBe(true);
  });

  it('withdrawn by the requester (unfollow): gone from the list and the count', async () => {
    const star = await lockedPerson();
    const fan = await signIn(t.app);
    await call(fan, 'PATCH', `/api/users/${star.username}/follow`);
    const withdrawn = (await call(fan, 'PATCH', `/api/users/${star.username}/unfollow`)).json().user;
    expect(withdrawn).toMatchObject({ followedByMe: false, followRequestedByMe: false });
    expect(await count(star)).toBe(0);
    expect(await requests(star)).toEqual([]);
  });

  it('nobody answers another person’s requests', async () => {
    const star = await lockedPerson();
    const [fan, stranger] = [await signIn(t.app), await signIn(t.app)];
    await call(fan, 'PATCH', `/api/users/${star.username}/follow`);
    expect((await call(stranger, 'POST', `/api/follow-requests/${fan.id}/approve`)).statusCode).toBe(404);
    expect((await call(stranger, 'POST', `/api/follow-requests/${fan.id}/reject`)).statusCode).toBe(404);
    // The requester cannot approve their own request either.
    expect((await call(fan, 'POST', `/api/follow-requests/${fan.id}/approve`)).statusCode).toBe(404);
    expect((await call(stranger, 'POST', '/api/follow-requests/not-an-id/approve')).statusCode).toBe(404);
    expect(await count(star)).toBe(1);
    expect((await profile(fan, star)).followedByMe).toBe(false);
    const anonymous = await t.app.inject({ method: 'POST', url: `/api/follow-requests/${fan.id}/approve` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('turning the setting off approves the waiting requests', async () => {
    const star = await lockedPerson();
    const [ann, bob] = [await signIn(t.app), await signIn(t.app)];
    await call(ann, 'PATCH', `/api/users/${star.username}/follow`);
    await call(bob, 'PATCH', `/api/users/${star.username}/follow`);
    const off = await call(star, 'PATCH', '/api/users/updateProfile', { approveFollowers: false });
    expect(off.json().user).toMatchObject({ approveFollowers: false, followersCount: 2 });
    expect(await count(star)).toBe(0);
    expect((await profile(ann, star)).followedByMe).toBe(true);
    expect((await profile(bob, star)).followedByMe).toBe(true);
  });

  it('refuses a setting that is not true or false', async () => {
    const user = await signIn(t.app);
    const res = await call(user, 'PATCH', '/api/users/updateProfile', { approveFollowers: 'maybe' });
    expect(res.statusCode).toBe(400);
  });

  it('a follower removed: no longer following, counts down, out of their feed; may follow again', async () => {
    const star = await signIn(t.app);
    const fan = await signIn(t.app);
    const p = await createPost(t.app, star);
    await call(fan, 'PATCH', `/api/users/${star.username}/follow`);
    expect(await home(fan)).toContain(p._id);
    expect((await call(star, 'DELETE', `/api/users/${fan.username}/follower`)).statusCode).toBe(204);
    expect(await profile(fan, star)).toMatchObject({ followedByMe: false, followersCount: 0 });
    expect((await profile(star, fan)).followingCount).toBe(0);
    expect(await home(fan)).not.toContain(p._id);
    // Not a block: they may follow again; removing a non-follower is a 404.
    expect((await call(star, 'DELETE', `/api/users/${fan.username}/follower`)).statusCode).toBe(404);
    expect((await call(fan, 'PATCH', `/api/users/${star.username}/follow`)).json().user.followedByMe).toBe(true);
  });

  it('a block ends a waiting request both ways', async () => {
    const star = await lockedPerson();
    const fan = await signIn(t.app);
    await call(fan, 'PATCH', `/api/users/${star.username}/follow`);
    await call(star, 'PATCH', `/api/users/${fan.username}/block`);
    expect(await count(star)).toBe(0);
  });
});
