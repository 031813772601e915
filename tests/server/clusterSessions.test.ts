/**
 * Sessions behind a balancer (issue 67, item 3): two instances on one database sharing Redis, every
 * request of a browser going to the next instance in turn. Each way a session ends that the suite
 * knows (a refresh token used again, logout, a password change or reset, signing out everywhere
 * else or one device, two-factor sign-in on and off, account deletion, suspension), then signing in
 * again: the new session works on both instances at once and once every message has arrived, and
 * the ended ones are refused on both.
 *
 * Each sequence runs twice: with the bus on time, and with it late on the second instance (`lateBus`)
 * from the moment the sessions end until the person has signed in again. Meanwhile that instance
 * still takes the ended sessions from its cache, as a busy cluster does for a moment: none of them
 * may end the new session there, nor lock its owner out (issue 67's 401s for the new session), as
 * one instance would refuse them. The caches keep a minute here, so only the bus makes an instance
 * forget what the other ended.
 */
import { randomBytes } from 'node:crypto';
import { hashEmailToken } from '../../server/auth/emailTokens';
import { type Balancer, balancer } from './balancer';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, busSettler, createTestApp, totpCode } from './helpers';
import { type LateBus, lateBus } from './lateBus';

const PASSWORD = 'correct horse battery';

/**
 * Sessions end through the first instance (`via`); the second hears of it through the bus, and
 * checks the ended sessions from its cache until then (in the late runs, until `release`).
 */
const ENDS_ON = 0;

interface Person {
  id: string;
  username: string;
  email: string;
  password: string;
  /** The browser signed in last. */
  browser: Balancer;
}

type Role = 'admin' | 'member';

describe.runIf(process.env.TEST_REDIS_URL)('sessions through two instances behind a balancer', () => {
  const env = {
    SESSION_CACHE_MS: '60000',
    POST_CACHE_MS: '60000',
    HOME_FEED_SYNC_MS: '60000',
    // Any second use of a refresh token is theft here: no race window to wait out.
    REFRESH_REUSE_GRACE_MS: '0',
    // While the bus is held, each request carrying a write's position waits out the silence bound
    // (3.5 beats) before the late instance starts over: 1 s beats made each late sequence ~30 s.
    BUS_HEARTBEAT_MS: '200',
    REDIS_URL: process.env.TEST_REDIS_URL!,
  };
  /** The second instance's way to Redis, whose messages to it can be held back. */
  let bus: LateBus;
  let instances: TestApp[];
  let settlers: (() => Promise<void>)[];
  /** The first account (an admin): suspends, and its session goes on through everything. */
  let admin: Person;
  /** Someone else, whose posts the admins delete. */
  let bystander: Person;

  beforeAll(async () => {
    bus = await lateBus(env.REDIS_URL);
    const one = await createTestApp(env);
    const two = await createTestApp({ ...env, REDIS_URL: bus.url }, { sameDatabaseAs: one });
    instances = [one, two];
    settlers = await Promise.all([busSettler(one, two), busSettler(two, one)]);
    admin = await signUp();
    bystander = await signUp();
  });
  afterAll(async () => {
    bus?.release();
    for (const t of instances?.toReversed() ?? []) await t.close();
    await bus?.close();
  });

  /** Every message either instance published so far has reached the other. */
  const settle = () => Promise.all(settlers.map((settler) => settler())).then(() => {});

  async function signInThrough(person: Omit<Person, 'browser'>, code?: string): Promise<Balancer> {
    const browser = balancer(instances);
    const res = await browser.request('POST', '/api/auth/login', {
      email: person.email,
      password: person.password,
      ...(code ? { code } : {}),
    });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    return browser;
  }

  async function signUp(username = `s_${randomBytes(4).toString('hex')}`, email = `${username}@example.com`) {
    const person = { id: '', username, email, password: PASSWORD };
    expect((await balancer(instances).request('POST', '/api/auth/signup', { ...person })).status).toBe(201);
    const browser = await signInThrough(person);
    const me = await browser.request('GET', '/api/auth/getLoggedUser');
    return { ...person, id: (me.body as { _id: string })._id, browser };
  }

  /** What factories.ts needs of a signed-in user: the browser's cookies. */
  const asUser = (browser: Balancer) =>
    ({
      headers: { cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    }) as SignedInUser;

  const postBy = async (browser: Balancer) => (await createPost(instances[0].app, asUser(browser)))._id;

  const expectStatus = async (answer: Promise<{ status: number; by: number }>, status: number, what: string) => {
    const { status: got, by } = await answer;
    expect({ what, on: by, status: got }).toEqual({ what, on: by, status });
  };

  /**
   * The session of `browser` works on each instance: a read, deleting a post of its own and, for an
   * admin, someone else's (the requests issue 67 saw refused).
   */
  async function works(person: Person, browser: Balancer, role: Role) {
    const own = [await postBy(browser), await postBy(browser)];
    const others = role === 'admin' ? [await postBy(bystander.browser), await postBy(bystander.browser)] : [];
    for (const [on] of instances.entries()) {
      const me = await browser.request('GET', '/api/auth/getLoggedUser', undefined, on);
      expect({ on, status: me.status, id: (me.body as { _id?: string })._id }).toEqual({
        on,
        status: 200,
        id: person.id,
      });
      await expectStatus(browser.request('GET', '/api/auth/sessions', undefined, on), 200, 'a read');
      await expectStatus(browser.request('DELETE', `/api/posts/${own[on]}/manage`, undefined, on), 200, 'own delete');
      if (role === 'admin')
        await expectStatus(
          browser.request('DELETE', `/api/posts/${others[on]}/manage`, undefined, on),
          200,
          'admin delete',
        );
    }
  }

  /** The ended session of `browser` (its access token, then its refresh token) is refused on each instance. */
  async function refused(browser: Balancer) {
    const accessOnly = browser.copy();
    accessOnly.cookies.delete('refresh_token');
    const refreshOnly = browser.copy();
    refreshOnly.cookies.delete('access_token');
    for (const [on] of instances.entries()) {
      await expectStatus(accessOnly.request('GET', '/api/auth/getLoggedUser', undefined, on), 401, 'ended: lookup');
      await expectStatus(accessOnly.request('GET', '/api/auth/sessions', undefined, on), 401, 'ended: a read');
      // A refused refresh rotates nothing: the same token is tried on the next instance.
      await expectStatus(refreshOnly.request('POST', '/api/auth/refresh', undefined, on), 401, 'ended: refresh');
    }
  }

  /**
   * On the second instance, whose cache may still take it, the ended session of `old` cannot end
   * `fresh` (signing it out, or everyone else), change the password or two-factor sign-in, or
   * delete the account: each answers 401.
   */
  async function cannotEndOthers(old: Balancer, person: Person, fresh: Balancer) {
    const listed = (await fresh.request('GET', '/api/auth/sessions')).body as { id: string; current: boolean }[];
    const freshId = listed.find((session) => session.current)!.id;
    const stale = old.copy();
    stale.cookies.delete('refresh_token');
    const onTwo = (method: string, url: string, payload?: object) => stale.request(method, url, payload, 1);
    await expectStatus(onTwo('DELETE', `/api/auth/sessions/${freshId}`), 401, 'ended: sign the new one out');
    await expectStatus(onTwo('DELETE', '/api/auth/sessions'), 401, 'ended: sign out everywhere else');
    const newPassword = { email: person.email, password: person.password, newPassword: 'a thief horse battery' };
    await expectStatus(onTwo('PATCH', '/api/users/updateAccount', newPassword), 401, 'ended: new password');
    await expectStatus(onTwo('POST', '/api/auth/2fa/setup'), 401, 'ended: two-factor');
    await expectStatus(onTwo('DELETE', '/api/users/me', { password: person.password }), 401, 'ended: delete');
  }

  /** Each instance has checked (and so keeps) the session of `browser`. */
  async function usedOnBoth(browser: Balancer) {
    for (const answer of await browser.onEach('GET', '/api/auth/getLoggedUser')) expect(answer.status).toBe(200);
  }

  /** A person (an admin or a member) signed in on two devices, each session used on both instances. */
  async function twoDevices(role: Role): Promise<{ person: Person; laptop: Balancer; phone: Balancer }> {
    const person = await signUp();
    if (role === 'admin') {
      await instances[0].db.kysely.updateTable('users').set({ role: 'admin' }).where('id', '=', person.id).execute();
      instances[0].app.ctx.events.publish({ type: 'UserRoleChanged', userId: person.id });
      await settle();
    }
    const laptop = person.browser;
    const phone = await signInThrough(person);
    await usedOnBoth(laptop);
    await usedOnBoth(phone);
    return { person, laptop, phone };
  }

  /** A reset link's token for the person, stored as `forgot` stores it (the mail: passwordReset.test.ts). */
  async function resetToken(person: Person): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await instances[1].db.kysely
      .insertInto('email_tokens')
      .values({
        token_hash: hashEmailToken(token),
        user_id: person.id,
        purpose: 'password_reset',
        email: person.email,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
        used_at: null,
      })
      .execute();
    return token;
  }

  for (const late of [false, true]) {
    describe(late ? 'the bus late on the second instance' : 'the bus on time', () => {
      // A failed sequence must not leave the next one without a bus.
      afterEach(() => bus.release());

      /** Just before the sessions end: with `late`, the second instance hears nothing more for now. */
      async function ending() {
        if (!late) return;
        await settle();
        bus.hold();
      }

      /**
       * After the sessions `ended` (each used on both instances before) ended, signing in again
       * gives a session that works on both at once, and once every message has arrived; the ended
       * ones cannot end it meanwhile, and are refused on both once the messages have arrived.
       */
      async function signInAgainAfter(
        person: Person,
        ended: Balancer[],
        role: Role,
        signInAgain: () => Promise<Balancer> = () => signInThrough(person),
      ) {
        if (!late) {
          await settle();
          for (const old of ended) await refused(old);
        }
        const fresh = await signInAgain();
        person.browser = fresh;
        await works(person, fresh, role);
        for (const old of ended) await cannotEndOthers(old, person, fresh);
        await works(person, fresh, role);
        bus.release();
        await settle();
        for (const old of ended) await refused(old);
        await works(person, fresh, role);
      }

      for (const role of ['admin', 'member'] as const) {
        describe(role === 'admin' ? 'an admin' : 'a member', () => {
          it('a refresh token used again ends its session; then logout; then signing in again', async () => {
            const { person, laptop, phone } = await twoDevices(role);
            const stolen = laptop.cookies.get('refresh_token')!;
            expect((await laptop.request('POST', '/api/auth/refresh')).status).toBe(200);
            await usedOnBoth(laptop);
            const thief = laptop.copy();
            thief.cookies.set('refresh_token', stolen);
            await ending();
            expect((await thief.request('POST', '/api/auth/refresh', undefined, ENDS_ON)).status).toBe(401);
            // The person notices and signs out.
            const before = laptop.copy();
            expect((await laptop.request('POST', '/api/auth/logout', undefined, ENDS_ON)).status).toBe(200);
            await signInAgainAfter(person, [before, thief], role);
            // The other device's session was never of that family.
            await works(person, phone, role);
          });

          it('logout; then signing in again', async () => {
            const { person, laptop, phone } = await twoDevices(role);
            const before = laptop.copy();
            await ending();
            expect((await laptop.request('POST', '/api/auth/logout', undefined, ENDS_ON)).status).toBe(200);
            await signInAgainAfter(person, [before], role);
            await works(person, phone, role);
          });

          it('a password change ends the other sessions; then logout; then signing in again', async () => {
            const { person, laptop, phone } = await twoDevices(role);
            await ending();
            const newPassword = 'another horse battery';
            const change = await laptop.request(
              'PATCH',
              '/api/users/updateAccount',
              { email: person.email, password: person.password, newPassword },
              ENDS_ON,
            );
            expect(change.status).toBe(200);
            person.password = newPassword;
            // The session that changed it goes on, on both instances.
            await usedOnBoth(laptop);
            const before = laptop.copy();
            expect((await laptop.request('POST', '/api/auth/logout', undefined, ENDS_ON)).status).toBe(200);
            await signInAgainAfter(person, [phone, before], role);
          });

          it('a password reset ends every session; then signing in again', async () => {
            const { person, laptop, phone } = await twoDevices(role);
            const token = await resetToken(person);
            await ending();
            const newPassword = 'a reset horse battery';
            const reset = await balancer(instances).request(
              'POST',
              '/api/auth/password/reset',
              { token, password: newPassword },
              ENDS_ON,
            );
            expect(reset.status).toBe(200);
            person.password = newPassword;
            await signInAgainAfter(person, [laptop, phone], role);
          });

          it('signing out everywhere else; then the other device signs in again', async () => {
            const { person, laptop, phone } = await twoDevices(role);
            await ending();
            expect((await laptop.request('DELETE', '/api/auth/sessions', undefined, ENDS_ON)).status).toBe(200);
            await signInAgainAfter(person, [phone], role);
            await works(person, laptop, role);
          });

          it('signing one device out from Settings; then it signs in again', async () => {
            const { person, laptop, phone } = await twoDevices(role);
            const listed = (await laptop.request('GET', '/api/auth/sessions')).body as {
              id: string;
              current: boolean;
            }[];
            const phoneSession = listed.find((session) => !session.current)!;
            await ending();
            const signedOut = await laptop.request(
              'DELETE',
              `/api/auth/sessions/${phoneSession.id}`,
              undefined,
              ENDS_ON,
            );
            expect(signedOut.status).toBe(200);
            await signInAgainAfter(person, [phone], role);
            await works(person, laptop, role);
          });

          it('two-factor sign-in on, then logout and signing in with a code; off, then logout and signing in', async () => {
            const { person, laptop, phone } = await twoDevices(role);
            const { secret } = (await laptop.request('POST', '/api/auth/2fa/setup')).body as { secret: string };
            const enable = await laptop.request('POST', '/api/auth/2fa/enable', { code: totpCode(secret, -1) });
            expect(enable.status).toBe(200);
            // Turning it on ends no session.
            await usedOnBoth(laptop);
            await usedOnBoth(phone);
            const withoutCode = laptop.copy();
            await ending();
            expect((await laptop.request('POST', '/api/auth/logout', undefined, ENDS_ON)).status).toBe(200);
            await signInAgainAfter(person, [withoutCode], role, () => signInThrough(person, totpCode(secret)));
            const disable = await person.browser.request('POST', '/api/auth/2fa/disable', {
              password: person.password,
              code: totpCode(secret, 1),
            });
            expect(disable.status).toBe(200);
            const withCode = person.browser.copy();
            await ending();
            expect((await person.browser.request('POST', '/api/auth/logout', undefined, ENDS_ON)).status).toBe(200);
            await signInAgainAfter(person, [withCode], role);
            await works(person, phone, role);
          });

          it('account deletion; then signing up and in again with the same address', async () => {
            const { person, laptop, phone } = await twoDevices(role);
            const before = laptop.copy();
            await ending();
            const deleted = await laptop.request('DELETE', '/api/users/me', { password: person.password }, ENDS_ON);
            expect(deleted.status).toBe(200);
            // The name is held for a while; the address is free at once.
            const again: Person = { ...person, id: '', username: `${person.username}_again` };
            await signInAgainAfter(again, [before, phone], 'member', async () => {
              const account = await signUp(again.username, person.email);
              again.id = account.id;
              return account.browser;
            });
          });
        });
      }

      it("an admin's suspension ends a member's sessions; lifted, the member signs in again", async () => {
        const { person, laptop, phone } = await twoDevices('member');
        await ending();
        const suspend = await admin.browser.request('POST', `/api/admin/users/${person.username}/suspend`, {}, ENDS_ON);
        expect(suspend.status).toBe(200);
        // Refused at once where it was suspended.
        await expectStatus(laptop.request('GET', '/api/auth/getLoggedUser', undefined, ENDS_ON), 401, 'suspended');
        const unsuspend = `/api/admin/users/${person.username}/unsuspend`;
        const lift = await admin.browser.request('POST', unsuspend, {}, ENDS_ON);
        expect(lift.status).toBe(200);
        await signInAgainAfter(person, [laptop, phone], 'member');
        // The admin's own session went on all along.
        await works(admin, admin.browser, 'admin');
      });
    });
  }
});
