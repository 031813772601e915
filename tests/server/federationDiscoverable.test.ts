/**
 * The actor's `discoverable` (issue 73): a local person's setting "Suggest my account and show my
 * posts in Explore" goes out on their `Person`, and a remote actor's is kept as Mastodon reads it
 * (only `true` makes them discoverable; absent or `false` does not).
 */
import { Person } from '@fedify/vocab';
import { remotePersonFields } from '../../server/federation/remotePeople';
import { type TestApp, createTestApp, signIn } from './helpers';

const SITE = 'https://posts.test';
const AP = { accept: 'application/activity+json' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: SITE });
});
afterAll(async () => t?.close());

describe("the actor's discoverable", () => {
  it('is true by default, and false once the person turns the setting off', async () => {
    const ann = await signIn(t.app);
    const actor = async () =>
      (await t.app.inject({ method: 'GET', url: `/users/${ann.id}`, headers: AP })).json() as {
        discoverable?: boolean;
      };
    expect((await actor()).discoverable).toBe(true);
    const off = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: ann.headers,
      payload: { discoverable: false },
    });
    expect(off.statusCode).toBe(200);
    expect((off.json() as { user: { discoverable: boolean } }).user.discoverable).toBe(false);
    expect((await actor()).discoverable).toBe(false);
  });

  it('of a remote actor is kept: true only when it says true', () => {
    const actor = (discoverable: boolean | null) =>
      new Person({
        id: new URL('https://far.example/users/zoe'),
        inbox: new URL('https://far.example/users/zoe/inbox'),
        preferredUsername: 'zoe',
        discoverable,
      });
    expect(remotePersonFields(actor(true))?.discoverable).toBe(1);
    expect(remotePersonFields(actor(false))?.discoverable).toBe(0);
    expect(remotePersonFields(actor(null))?.discoverable).toBe(0);
  });

  it('refuses a setting that is not true or false', async () => {
    const bob = await signIn(t.app);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: bob.headers,
      payload: { discoverable: 'yes' },
    });
    expect(res.statusCode).toBe(400);
  });
});
