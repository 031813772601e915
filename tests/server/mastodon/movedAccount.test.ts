/**
 * A moved account in the Mastodon client API (issue 76), read through `masto` as an app reads it:
 * `moved` is the Account it moved to, on `accounts/:id` and `accounts/lookup`; an account that has
 * not moved has none; the moved account's new statuses are refused (403, with why). One instance,
 * federation off: a move between two people of this server.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MastoHttpError, type mastodon } from 'masto';
import { type SignedInUser, type TestApp, createTestApp, signIn } from '../helpers';
import { clientFor, listenOn, userToken } from './oauthFlow';

const PNG = path.resolve(import.meta.dirname, '../../fixtures/pngsuite/png/basn2c08.png');

let t: TestApp;
let url: string;
let ann: SignedInUser;
let bob: SignedInUser;
let annApi: mastodon.rest.Client;
let bobApi: mastodon.rest.Client;

beforeAll(async () => {
  t = await createTestApp();
  url = await listenOn(t);
  ann = await signIn(t.app, { username: 'ann' });
  bob = await signIn(t.app, { username: 'bob' });
  annApi = clientFor(url, await userToken(url, ann, 'read write follow'));
  bobApi = clientFor(url, await userToken(url, bob, 'read write follow'));
});
afterAll(async () => {
  await t.close();
});

describe('a moved account', () => {
  it('has no `moved` before the move', async () => {
    const account = await bobApi.v1.accounts.$select(ann.id).fetch();
    expect(account.moved).toBeUndefined();
  });

  it('is the Account it moved to in `moved`', async () => {
    const alias = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/aliases',
      headers: bob.headers,
      payload: { address: 'ann' },
    });
    expect(alias.statusCode, alias.body).toBe(200);
    const move = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/move',
      headers: ann.headers,
      payload: { address: 'bob' },
    });
    expect(move.statusCode, move.body).toBe(200);

    const account = await bobApi.v1.accounts.$select(ann.id).fetch();
    expect(account).toMatchObject({ id: ann.id, acct: 'ann' });
    expect(account.moved).toMatchObject({ id: bob.id, acct: 'bob', username: 'bob' });
    expect((await bobApi.v1.accounts.lookup({ acct: 'ann' })).moved).toMatchObject({ id: bob.id });
    expect((await annApi.v1.accounts.$select(bob.id).fetch()).moved).toBeUndefined();
  });

  it('keeps its move when the new account removes the alias; an alias not there is a 404', async () => {
    const inject = (method: 'GET' | 'DELETE', url: string) => t.app.inject({ method, url, headers: bob.headers });
    const { aliases } = (await inject('GET', '/api/users/me/aliases')).json();
    // Federation off: the actor addresses are the site's (`PUBLIC_URL`, else HOST:PORT).
    const site = new URL(t.config.siteUrl);
    expect(aliases).toEqual([{ uri: `${site.origin}/users/${ann.id}`, address: `ann@${site.host}` }]);
    const removed = await inject('DELETE', `/api/users/me/aliases?uri=${encodeURIComponent(aliases[0].uri)}`);
    expect(removed.json()).toEqual({ aliases: [] });
    const again = await inject('DELETE', `/api/users/me/aliases?uri=${encodeURIComponent(aliases[0].uri)}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'AliasNotFound' });
    expect((await bobApi.v1.accounts.$select(ann.id).fetch()).moved).toMatchObject({ id: bob.id });
  });

  it('takes no new statuses', async () => {
    const file = new Blob([await readFile(PNG)], { type: 'image/png' });
    const media = await annApi.v2.media.create({ file, description: 'A test card' });
    const refused = await annApi.v1.statuses
      .create({ status: 'Still here?', mediaIds: [media.id] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MastoHttpError);
    expect(refused).toMatchObject({
      statusCode: 403,
      message: 'This account has moved to @bob: it takes no new posts',
    });
  });
});
