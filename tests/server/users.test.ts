import { TEXTS } from '../../lib/texts';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, cookieHeader, cookiesOf, createTestApp, signIn } from './helpers';
import { uploadImage } from './multipart';

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
const userRow = (id: string) =>
  t.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('profiles', () => {
  it('shows a profile without the email, found ignoring case', async () => {
    const ann = await signIn(t.app);
    const viewer = await signIn(t.app);
    const res = await inject(viewer, 'GET', `/api/users/${ann.username.toUpperCase()}`);
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user).toMatchObject({
      _id: ann.id,
      username: ann.username,
      followersCount: 0,
      followedByMe: false,
      description: '',
    });
    expect(user).not.toHaveProperty('email');
    expect((await inject(viewer, 'GET', '/api/users/nobody_here')).statusCode).toBe(404);
    expect((await inject(null, 'GET', `/api/users/${ann.username}`)).statusCode).toBe(401);
  });

  it("lists a user's posts newest first", async () => {
    const ann = await signIn(t.app);
    const first = await createPost(t.app, ann);
    const second = await createPost(t.app, ann);
    const res = await inject(ann, 'GET', `/api/users/${ann.username}/posts`);
    expect(res.json().map((p: { _id: string }) => p._id)).toEqual([second._id, first._id]);
    // The name is matched as the profile page matches it, whatever its case.
    const shouted = await inject(ann, 'GET', `/api/users/${ann.username.toUpperCase()}/posts`);
    expect(shouted.json().map((p: { _id: string }) => p._id)).toEqual([second._id, first._id]);
    // A user without posts has an empty list; only an unknown name is a 404.
    const quiet = await signIn(t.app);
    const empty = await inject(ann, 'GET', `/api/users/${quiet.username}/posts`);
    expect([empty.statusCode, empty.json()]).toEqual([200, []]);
    expect((await inject(ann, 'GET', '/api/users/nobody_here/posts')).statusCode).toBe(404);
    expect((await inject(null, 'GET', `/api/users/${ann.username}/posts`)).statusCode).toBe(401);
  });
});

describe('follow and unfollow', () => {
  it('follows idempotently, keeps counters, lists both sides, and unfollows', async () => {
    const fan = await signIn(t.app);
    const star = await signIn(t.app);
    const first = await inject(fan, 'PATCH', `/api/users/${star.username}/follow`, { userId: star.id });
    expect(first.statusCode).toBe(200);
    expect(first.json().user).toMatchObject({ username: star.username, followersCount: 1, followedByMe: true });
    const again = await inject(fan, 'PATCH', `/api/users/${star.username}/follow`);
    expect(again.json().user.followersCount).toBe(1);
    expect((await userRow(fan.id)).following_count).toBe(1);

    const followers = (await inject(fan, 'GET', `/api/users/${star.username}/followers`)).json();
    expect(followers).toEqual([
      { _id: fan.id, username: fan.username, avatar: null, description: '', followedByMe: false },
    ]);
    const following = (await inject(star, 'GET', `/api/users/${fan.username}/following`)).json();
    expect(following.map((u: { username: string }) => u.username)).toEqual([star.username]);
    expect((await inject(fan, 'GET', `/api/users/${star.username}`)).json().user.followedByMe).toBe(true);

    const un = await inject(fan, 'PATCH', `/api/users/${star.username}/unfollow`);
    expect(un.json().user).toMatchObject({ followersCount: 0, followedByMe: false });
    const unAgain = await inject(fan, 'PATCH', `/api/users/${star.username}/unfollow`);
    expect(unAgain.json().user.followersCount).toBe(0);
    expect((await userRow(fan.id)).following_count).toBe(0);
  });

  it('refuses following yourself, unknown users and visitors', async () => {
    const me = await signIn(t.app);
    const self = await inject(me, 'PATCH', `/api/users/${me.username}/follow`);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('You cannot follow yourself');
    expect((await inject(me, 'PATCH', '/api/users/nobody_here/follow')).statusCode).toBe(404);
    expect((await inject(null, 'PATCH', `/api/users/${me.username}/follow`)).statusCode).toBe(401);
    expect((await inject(null, 'PATCH', `/api/users/${me.username}/unfollow`)).statusCode).toBe(401);
    expect((await inject(null, 'GET', `/api/users/${me.username}/followers`)).statusCode).toBe(401);
  });
});

describe('updateAccount', () => {
  it('changes username, email and password with the current password', async () => {
    const user = await signIn(t.app);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
    });
    const otherSession = cookieHeader(cookiesOf(other));
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: { cookie: otherSession } }))
        .statusCode,
    ).toBe(200);
    const res = await inject(user, 'PATCH', '/api/users/updateAccount', {
      username: `${user.username}_x`,
      email: user.email,
      newEmail: `new_${user.email}`,
      password: user.password,
      newPassword: 'brand new password',
    });
    expect(res.statusCode).toBe(200);
    // The new email waits for its link (tests/server/emailVerification.test.ts).
    expect(res.json().user).toMatchObject({
      username: `${user.username}_x`,
      email: user.email,
      pendingEmail: `new_${user.email}`,
    });
    // This session lives on; the other device is signed out.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: user.headers })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: { cookie: otherSession } }))
        .statusCode,
    ).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'brand new password' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('answers 400 Invalid password for a wrong current password and changes nothing', async () => {
    const user = await signIn(t.app);
    const before = await userRow(user.id);
    const res = await inject(user, 'PATCH', '/api/users/updateAccount', {
      username: 'changed_name',
      email: user.email,
      password: 'wrong password',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: TEXTS.invalidPassword, code: 'InvalidPassword' });
    expect(await userRow(user.id)).toEqual(before);
  });

  it('validates new values and refuses taken ones', async () => {
    const user = await signIn(t.app);
    const taken = await signIn(t.app);
    const base = { email: user.email, password: user.password };
    const cases: [object, number, string][] = [
      [{ username: 'x' }, 400, 'Username must be 3–30 characters'],
      [{ newEmail: 'nope' }, 400, 'Email must be a valid address'],
      [{ newPassword: 'short' }, 400, 'New password must be 8–128 characters'],
      [{ username: taken.username.toUpperCase() }, 409, 'Username is already taken'],
      [{ newEmail: taken.email }, 409, 'Email is already registered'],
    ];
    for (const [change, status, message] of cases) {
      const res = await inject(user, 'PATCH', '/api/users/updateAccount', { ...base, ...change });
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(message);
    }
  });

  it("refuses someone else's email with 403 and changes nothing", async () => {
    const user = await signIn(t.app);
    const victim = await signIn(t.app);
    const before = await userRow(victim.id);
    const res = await inject(user, 'PATCH', '/api/users/updateAccount', {
      email: victim.email,
      password: user.password,
      username: 'stolen_name',
    });
    expect(res.statusCode).toBe(403);
    expect(await userRow(victim.id)).toEqual(before);
    expect(
      (await inject(null, 'PATCH', '/api/users/updateAccount', { email: victim.email, password: 'x' })).statusCode,
    ).toBe(401);
  });
});

describe('updateProfile', () => {
  it('sets avatar, banner and description from own uploads, and clears them with null', async () => {
    const user = await signIn(t.app);
    const avatar = await uploadImage(t.app, user, 'avatar');
    const banner = await uploadImage(t.app, user, 'banner');
    const res = await inject(user, 'PATCH', '/api/users/updateProfile', {
      email: user.email,
      avatar: avatar.secure_url,
      banner: banner.secure_url,
      description: '  Hello  ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      avatar: avatar.secure_url,
      banner: banner.secure_url,
      description: 'Hello',
    });
    const post = await createPost(t.app, user);
    expect((await inject(user, 'GET', `/api/posts/${post._id}`)).json().creatorImage).toBe(avatar.secure_url);
    const cleared = await inject(user, 'PATCH', '/api/users/updateProfile', { avatar: null });
    expect(cleared.json().user).toMatchObject({ avatar: null, banner: banner.secure_url, description: 'Hello' });
  });

  it('refuses foreign image URLs and long descriptions', async () => {
    const user = await signIn(t.app);
    const other = await signIn(t.app);
    const othersUpload = await uploadImage(t.app, other, 'avatar');
    for (const avatar of ['https://evil.example/a.png', othersUpload.secure_url, '/media/../../etc/passwd']) {
      const res = await inject(user, 'PATCH', '/api/users/updateProfile', { avatar });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('InvalidImage');
    }
    const long = await inject(user, 'PATCH', '/api/users/updateProfile', { description: 'x'.repeat(301) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Description must be at most 300 characters');
  });

  it("refuses someone else's email with 403 and changes nothing", async () => {
    const user = await signIn(t.app);
    const victim = await signIn(t.app);
    const before = await userRow(victim.id);
    const res = await inject(user, 'PATCH', '/api/users/updateProfile', { email: victim.email, description: 'pwned' });
    expect(res.statusCode).toBe(403);
    expect(await userRow(victim.id)).toEqual(before);
    expect((await userRow(user.id)).description).toBe('');
    expect((await inject(null, 'PATCH', '/api/users/updateProfile', { description: 'x' })).statusCode).toBe(401);
  });

  it('keeps the language chosen for the app (issue 75): one of the six, or null; anything else is a 400', async () => {
    const user = await signIn(t.app);
    const me = async () => (await inject(user, 'GET', '/api/auth/getLoggedUser')).json().language;
    expect(await me()).toBeNull();
    const set = await inject(user, 'PATCH', '/api/users/updateProfile', { language: 'ar' });
    expect(set.statusCode).toBe(200);
    expect(set.json().user.language).toBe('ar');
    expect(await me()).toBe('ar');
    for (const language of ['pt', 'AR', 'ar-EG', 1, true, {}]) {
      const refused = await inject(user, 'PATCH', '/api/users/updateProfile', { language });
      expect(refused.statusCode, String(language)).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'InvalidLanguage',
        message: 'language must be one of en, es, de, fr, ja, ar, or null',
      });
    }
    expect(await me()).toBe('ar');
    expect(
      (await inject(user, 'PATCH', '/api/users/updateProfile', { language: null })).json().user.language,
    ).toBeNull();
    expect((await userRow(user.id)).language).toBeNull();
  });
});

describe('instance', () => {
  it('tells visitors how to reach the operators', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/instance' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'Posts', contactEmail: 'admin@example.com', maxPostImages: 10 });
  });
});
