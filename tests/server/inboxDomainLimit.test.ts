/**
 * The inbox's limit per sending server (issue 68, item 37): `RATE_LIMIT_INBOX_PER_DOMAIN`
 * activities a minute per signing key's host, counted in the rate-limit store (Redis with
 * `REDIS_URL`); past it 429 with `Retry-After`, while another server's activities still pass.
 */
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer } from './remoteServer';

let t: TestApp;
let local: string;
let one: RemoteServer;
let two: RemoteServer;
let ann: SignedInUser;

beforeAll(async () => {
  [one, two] = await Promise.all([startRemoteServer(['zoe']), startRemoteServer(['yan'])]);
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true', RATE_LIMIT_INBOX_PER_DOMAIN: '3' });
  await t.app.listen({ host: '127.0.0.1', port });
  ann = await signIn(t.app, { username: 'ann' });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([one?.close(), two?.close()]);
});

const like = (remote: RemoteServer, name: string, n: number) => ({
  id: `${remote.origin}/likes/${n}`,
  type: 'Like',
  actor: remote.actorUri(name),
  object: `${local}/users/${ann.id}`,
});

describe('activities from one server past RATE_LIMIT_INBOX_PER_DOMAIN a minute', () => {
  it('are refused 429 with Retry-After; another server is not held by it', async () => {
    const statuses = [];
    for (let n = 1; n <= 3; n++)
      statuses.push((await one.signedPost('zoe', `${local}/inbox`, like(one, 'zoe', n))).status);
    expect(statuses).toEqual([202, 202, 202]);
    const refused = await one.signedPost('zoe', `${local}/users/${ann.id}/inbox`, like(one, 'zoe', 4));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'RateLimited' });
    expect((await two.signedPost('yan', `${local}/inbox`, like(two, 'yan', 1))).status).toBe(202);
  });
});
