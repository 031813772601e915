/**
 * The profile fields of a person from elsewhere (issue 68): the `PropertyValue`s a Mastodon actor
 * carries in `attachment` (values in HTML, a link drawn with Mastodon's invisible spans) are kept
 * as their profile fields, as text, cleaned and bounded, at most four; an `Update(Person)` changes
 * them, and the profile a cache kept shows the change at once.
 */
import type { Profile } from '../../lib/types';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

/** The terms Mastodon's actor context adds for profile fields (`ActivityPub::ActorSerializer`). */
const MASTODON_FIELD_TERMS = {
  schema: 'http://schema.org#',
  PropertyValue: 'schema:PropertyValue',
  value: 'schema:value',
  toot: 'http://joinmastodon.org/ns#',
  discoverable: 'toot:discoverable',
};

/** A profile link as Mastodon writes it in a field's value. */
const mastodonLink = (href: string) => {
  const [, scheme, rest] = /^(https?:\/\/)(.*)$/.exec(href)!;
  return `<a href="${href}" target="_blank" rel="nofollow noopener noreferrer me" translate="no"><span class="invisible">${scheme}</span><span class="">${rest}</span><span class="invisible"></span></a>`;
};

let t: TestApp;
let local: string;
let remote: RemoteServer;
let ann: SignedInUser;
let zoe: string;

beforeAll(async () => {
  remote = await startRemoteServer(['zoe']);
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true', POST_CACHE_MS: '60000' });
  await t.app.listen({ host: '127.0.0.1', port });
  ann = await signIn(t.app, { username: 'ann' });
  zoe = `zoe@${remote.host}`;
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

/** Zoe's actor as her server serves it, with Mastodon's `attachment`, sent to this instance in an `Update`. */
async function zoeUpdates(n: number, attachment: unknown[]) {
  const { '@context': context, ...actorJson } = (await (
    await fetch(remote.actorUri('zoe'), { headers: { accept: 'application/activity+json' } })
  ).json()) as Record<string, unknown>;
  const res = await remote.signedPost('zoe', `${local}/inbox`, {
    '@context': [context, MASTODON_FIELD_TERMS].flat(),
    id: `${remote.origin}/updates/${n}`,
    type: 'Update',
    actor: remote.actorUri('zoe'),
    to: PUBLIC,
    object: { ...actorJson, discoverable: true, attachment },
  });
  expect(res.status, await res.text()).toBe(202);
}

const fieldsColumn = async () =>
  (await t.db.kysely.selectFrom('users').select('profile_fields').where('username', '=', zoe).executeTakeFirst())
    ?.profile_fields;
const profileOfZoe = async () => {
  const res = await t.app.inject({ method: 'GET', url: `/api/users/${zoe}`, headers: ann.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().user as Profile;
};

describe("a person from elsewhere's profile fields", () => {
  it('are kept from their PropertyValues as text, cleaned and bounded, at most four', async () => {
    await zoeUpdates(1, [
      { type: 'PropertyValue', name: 'Website', value: mastodonLink('https://zoe.example/photos') },
      { type: 'PropertyValue', name: 'Pronouns', value: 'she/her' },
      // Not a field: skipped; one named by its address only is not fetched.
      { type: 'Image', url: `${remote.origin}/files/none.png` },
      `${remote.origin}/attachments/1`,
      { type: 'PropertyValue', name: 'Empty', value: '' },
      { type: 'PropertyValue', name: 'Mark\u202e\u200b  up', value: '<p>A <b>bold</b>\u0000 claim &amp; more</p>' },
      { type: 'PropertyValue', name: 'Long', value: 'x'.repeat(3000) },
      { type: 'PropertyValue', name: 'Fifth', value: 'one too many' },
    ]);
    await until(async () => ((await fieldsColumn()) ? true : undefined));
    const profile = await profileOfZoe();
    expect(profile.fields).toEqual([
      { name: 'Website', value: 'https://zoe.example/photos', verifiedAt: null },
      { name: 'Pronouns', value: 'she/her', verifiedAt: null },
      { name: 'Mark up', value: 'A bold claim & more', verifiedAt: null },
      { name: 'Long', value: 'x'.repeat(2047), verifiedAt: null },
    ]);
    expect(remote.requests.filter((r) => r.path === '/attachments/1')).toEqual([]);
  });

  it('change with their next Update(Person), shown at once; none left is none', async () => {
    // Read twice: the profile is kept by the caches from here on.
    for (let read = 0; read < 2; read++) expect((await profileOfZoe()).fields).toHaveLength(4);
    await zoeUpdates(2, [{ type: 'PropertyValue', name: 'Website', value: mastodonLink('https://zoe.example/') }]);
    await until(async () => ((await fieldsColumn())?.includes('"https://zoe.example/"') ? true : undefined));
    expect((await profileOfZoe()).fields).toEqual([
      { name: 'Website', value: 'https://zoe.example/', verifiedAt: null },
    ]);
    await zoeUpdates(3, []);
    await until(async () => ((await fieldsColumn()) === null ? true : undefined));
    expect((await profileOfZoe()).fields).toEqual([]);
  });
});
