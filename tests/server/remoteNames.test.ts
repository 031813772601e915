/**
 * Long names from elsewhere (issue 32): a kept `name@host` may be as long as the column's 300
 * characters, far past a local name's 30, and every route that takes a username takes it: the
 * profile and its lists, follow and unfollow, block and mute, the admin's look-up, and the
 * profile page `/profile/@name@host`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FirstLoad, firstLoadOf } from '../../lib/firstLoad';
import { REMOTE_USERNAME_MAX } from '../../lib/limits';
import { remoteUserRow } from './factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';

// Stands in for Next.js: answers with the data the page would be rendered from.
async function pageHandler(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ url: req.url, firstLoad: firstLoadOf(req) }));
}

let t: TestApp;
let ann: SignedInUser;
let username: string;

beforeAll(async () => {
  t = await createTestApp({}, { pageHandler });
  ann = await signIn(t.app, { username: 'ann' });
  await makeAdmin(t, ann);
  // A host of 200 characters (labels of at most 63; the domain column holds 255), the name the rest.
  const row = remoteUserRow('x.example');
  const host = `${'a'.repeat(50).concat('.').repeat(4).slice(0, 191)}b.example`;
  const name = row.username.slice(0, row.username.indexOf('@')).padEnd(REMOTE_USERNAME_MAX - 1 - host.length, 'z');
  username = `${name}@${host}`;
  await t.db.kysely
    .insertInto('users')
    .values({ ...row, username, username_lower: username, domain: host })
    .execute();
});
afterAll(async () => {
  await t.close();
});

const call = (method: 'GET' | 'PATCH' | 'POST', path: string) =>
  t.app.inject({ method, url: path.replace('{name}', encodeURIComponent(username)), headers: ann.headers });

describe('a name from elsewhere as long as a stored one may be', () => {
  it('is that long', () => {
    expect(username.length).toBe(REMOTE_USERNAME_MAX);
  });

  it('is taken by every /api/users route that names a person', async () => {
    for (const [method, path] of [
      ['GET', '/api/users/{name}'],
      ['GET', '/api/users/{name}/posts'],
      ['GET', '/api/users/{name}/followers'],
      ['GET', '/api/users/{name}/following'],
      ['PATCH', '/api/users/{name}/follow'],
      ['PATCH', '/api/users/{name}/unfollow'],
      ['PATCH', '/api/users/{name}/block'],
      ['PATCH', '/api/users/{name}/unblock'],
      ['PATCH', '/api/users/{name}/mute'],
      ['PATCH', '/api/users/{name}/unmute'],
      ['GET', '/api/admin/users/{name}'],
    ] as const) {
      const res = await call(method, path);
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
    }
    expect((await call('GET', '/api/users/{name}')).json().user.username).toBe(username);
  });

  it('opens their profile page, /profile/@name@host, with their profile read', async () => {
    const at = username.lastIndexOf('@');
    const res = await t.app.inject({
      method: 'GET',
      url: `/profile/@${username.slice(0, at)}@${username.slice(at + 1)}`,
      headers: { cookie: ann.headers.cookie },
    });
    expect(res.statusCode).toBe(200);
    const { firstLoad } = JSON.parse(res.body) as { firstLoad: FirstLoad };
    expect(JSON.stringify(firstLoad.page)).toContain(username);
  });

  it('one character longer is a clear 400, not a missing route', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/users/${encodeURIComponent(`${username}x`)}`,
      headers: ann.headers,
    });
    expect(res.statusCode).toBe(400);
  });
});
