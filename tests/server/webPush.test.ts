/**
 * Web Push (issue 74, items 2 and 4) against a real receiver: the test plays the browser and its
 * push service. It makes its own P-256 key pair and auth secret, subscribes with an endpoint on a
 * local HTTP server, and checks what arrives as a push service and a browser would: the VAPID
 * JWT (RFC 8292: audience, ES256 signature by the instance's key) and the `aes128gcm` record
 * (RFC 8291), decrypted with `http_ece`.
 */
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { MastoHttpError } from 'masto';
import { createPost } from './factories';
import { loadConfig } from '../../server/config';
import { type SignedInUser, type TestApp, createTestApp, readUntil, signIn } from './helpers';
import { clientFor, listenOn, userToken } from './mastodon/oauthFlow';

/** What the receiver got: one push. */
interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** The local push service: records each push; a path's handler may answer late or refuse. */
interface Receiver {
  origin: string;
  received: Received[];
  /** What `path` answers (default 201 at once). */
  on(path: string, answer: (push: Received) => Promise<number> | number): void;
  /** Resolves once `count` pushes to `path` have arrived. */
  arrived(path: string, count?: number): Promise<Received[]>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers = new Map<string, (push: Received) => Promise<number> | number>();
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const push = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(push);
      for (const wake of waiters.splice(0)) wake();
      void Promise.resolve((answers.get(push.path) ?? (() => 201))(push)).then((status) => {
        res.statusCode = status;
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    on: (path, answer) => void answers.set(path, answer),
    async arrived(path, count = 1) {
      for (;;) {
        const got = received.filter((push) => push.path === path);
        if (got.length >= count) return got;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's side of a subscription: its key pair and auth secret. */
interface BrowserKeys {
  ecdh: ECDH;
  auth: Buffer;
  keys: { p256dh: string; auth: string };
}

function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

/** The JWT of `Authorization: vapid t=…, k=…`, checked as a push service checks it; its claims. */
function checkVapid(push: Received, serverKey: string): Record<string, unknown> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(push.headers.authorization));
  expect(match, `Authorization: ${push.headers.authorization}`).not.toBeNull();
  const [, jwt, k] = match!;
  expect(k).toBe(serverKey);
  const [header, claims, signature] = jwt.split('.');
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = Buffer.from(`${header}.${claims}`);
  const valid = verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  expect(valid).toBe(true);
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>;
}

function decrypt(push: Received, browser: BrowserKeys): Record<string, unknown> {
  expect(push.headers['content-encoding']).toBe('aes128gcm');
  const plain = ece.decrypt(push.body, { version: 'aes128gcm', privateKey: browser.ecdh, authSecret: browser.auth });
  return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
}

let t: TestApp;
let receiver: Receiver;
let serverKey: string;

beforeAll(async () => {
  t = await createTestApp(
    { WEB_PUSH_ALLOW_PRIVATE: 'true', CONTACT_EMAIL: 'ops@posts.example' },
    { pushRetryDelaysMs: [10, 10] },
  );
  receiver = await startReceiver();
  serverKey = (await t.app.inject({ method: 'GET', url: '/api/push/key' })).json().publicKey;
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const push = () => t.app.ctx.push!;

async function subscribe(user: SignedInUser, path: string, browser: BrowserKeys, extra: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/push/subscription',
    headers: user.headers,
    payload: { endpoint: `${receiver.origin}${path}`, expirationTime: null, keys: browser.keys, ...extra },
  });
}

const like = (user: SignedInUser, postId: string) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/posts/${postId}/like`,
    headers: user.headers,
    payload: { userId: user.id },
  });

/** Signs `user` in once more: another session, as another device. */
async function anotherSession(user: SignedInUser): Promise<SignedInUser> {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: user.password },
  });
  const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return { ...user, headers: { cookie } };
}

describe('the key and the web app subscription', () => {
  it('hands out the instance key, kept in the secrets file', async () => {
    expect(Buffer.from(serverKey, 'base64url')).toHaveLength(65);
    const { readFile } = await import('node:fs/promises');
    const secrets = JSON.parse(await readFile(`${t.dataDir}/secrets.json`, 'utf8'));
    expect(secrets.vapidPublicKey).toBe(serverKey);
  });

  it('creates, reads, changes and deletes the session’s subscription', async () => {
    const alice = await signIn(t.app);
    const browser = browserKeys();
    const created = await subscribe(alice, '/crud', browser, { alerts: { follow: false } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      endpoint: `${receiver.origin}/crud`,
      alerts: { follow: false, follow_request: true, like: true, comment: true, mention: true },
      policy: 'all',
      serverKey,
    });
    const read = await t.app.inject({ method: 'GET', url: '/api/push/subscription', headers: alice.headers });
    expect(read.json()).toEqual(created.json());
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/push/subscription',
      headers: alice.headers,
      payload: { alerts: { like: false }, policy: 'followed' },
    });
    expect(changed.json()).toMatchObject({ alerts: { follow: false, like: false, mention: true }, policy: 'followed' });
    // Another person's calls reach only their own (none).
    const bob = await signIn(t.app);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/push/subscription', headers: bob.headers })).statusCode,
    ).toBe(404);
    await t.app.inject({ method: 'DELETE', url: '/api/push/subscription', headers: bob.headers });
    const still = await t.app.inject({ method: 'GET', url: '/api/push/subscription', headers: alice.headers });
    expect(still.statusCode).toBe(200);
    const removed = await t.app.inject({ method: 'DELETE', url: '/api/push/subscription', headers: alice.headers });
    expect(removed.statusCode).toBe(204);
    const gone = await t.app.inject({ method: 'GET', url: '/api/push/subscription', headers: alice.headers });
    expect(gone.statusCode).toBe(404);
    const notThere = await t.app.inject({
      method: 'PUT',
      url: '/api/push/subscription',
      headers: alice.headers,
      payload: { alerts: { like: true } },
    });
    expect(notThere.statusCode).toBe(404);
  });

  it('refuses bad subscriptions with a 400 that says why, and strangers with a 401', async () => {
    const alice = await signIn(t.app);
    const browser = browserKeys();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ endpoint: 'not a url', keys: browser.keys }, /endpoint must be a URL/],
      [{ endpoint: 'ftp://push.example/x', keys: browser.keys }, /https:\/\//],
      [{ endpoint: `${receiver.origin}/x` }, /needs keys/],
      [{ endpoint: `${receiver.origin}/x`, keys: { ...browser.keys, p256dh: 'AAAA' } }, /p256dh must be/],
      [{ endpoint: `${receiver.origin}/x`, keys: { ...browser.keys, auth: 'AAAA' } }, /auth must be a 16-byte/],
      [
        { endpoint: `${receiver.origin}/x`, keys: browser.keys, alerts: { reblog: true } },
        /alerts.reblog is not a kind/,
      ],
      [
        { endpoint: `${receiver.origin}/x`, keys: browser.keys, alerts: { like: 'yes' } },
        /alerts.like must be true or false/,
      ],
      [{ endpoint: `${receiver.origin}/x`, keys: browser.keys, policy: 'friends' }, /policy must be one of/],
    ];
    for (const [payload, message] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/push/subscription',
        headers: alice.headers,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/api/push/subscription',
      payload: { endpoint: `${receiver.origin}/x`, keys: browser.keys },
    });
    expect(stranger.statusCode).toBe(401);
    // Nothing half-written.
    const none = await t.app.inject({ method: 'GET', url: '/api/push/subscription', headers: alice.headers });
    expect(none.statusCode).toBe(404);
  });

  it('refuses http and private endpoints on an instance that does not allow them', async () => {
    const strict = await createTestApp();
    try {
      const alice = await signIn(strict.app);
      const { keys } = browserKeys();
      for (const endpoint of [
        'http://push.example/x',
        'https://127.0.0.1/x',
        'https://localhost/x',
        'https://10.0.0.1/x',
      ]) {
        const res = await strict.app.inject({
          method: 'POST',
          url: '/api/push/subscription',
          headers: alice.headers,
          payload: { endpoint, keys },
        });
        expect(res.statusCode, endpoint).toBe(400);
        expect(res.json().message).toMatch(/https:\/\/ URL|public address/);
      }
    } finally {
      await strict.close();
    }
  });

  it('takes the key pair from the environment, and refuses half or malformed settings', async () => {
    const made = createECDH('prime256v1');
    made.generateKeys();
    // A private key whose first byte is 0 comes out of `getPrivateKey` one byte short (1 in 256):
    // written on its 32 bytes, as `web-push generate-vapid-keys` writes it.
    const privateKey = made.getPrivateKey();
    const pair = {
      publicKey: made.getPublicKey().toString('base64url'),
      privateKey: Buffer.concat([Buffer.alloc(32 - privateKey.length), privateKey]).toString('base64url'),
    };
    const given = await createTestApp({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey });
    try {
      const key = await given.app.inject({ method: 'GET', url: '/api/push/key' });
      expect(key.json().publicKey).toBe(pair.publicKey);
    } finally {
      await given.close();
    }
    const env = { DATA_DIR: t.dataDir, JWT_SECRET: 'x'.repeat(40) };
    expect(() => loadConfig({ ...env, VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(/must be set together/);
    expect(() => loadConfig({ ...env, VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: pair.privateKey })).toThrow(
      /VAPID_PUBLIC_KEY must be 65 bytes/,
    );
    expect(() =>
      loadConfig({ ...env, VAPID_PUBLIC_KEY: browserKeys().keys.p256dh, VAPID_PRIVATE_KEY: pair.privateKey }),
    ).toThrow(/not the public key of VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ ...env, VAPID_SUBJECT: 'ops@posts.example' })).toThrow(/mailto: or https:/);
    expect(() => loadConfig({ ...env, WEB_PUSH: 'no' })).toThrow(/WEB_PUSH must be true or false/);
  });

  it('answers 404 everywhere when pushes are off', async () => {
    const off = await createTestApp({ WEB_PUSH: 'false' });
    try {
      expect(off.app.ctx.push).toBeNull();
      const key = await off.app.inject({ method: 'GET', url: '/api/push/key' });
      expect(key.statusCode).toBe(404);
      expect(key.json()).toMatchObject({
        code: 'PushDisabled',
        message: 'Push notifications are turned off on this instance',
      });
    } finally {
      await off.close();
    }
  });
});

describe('deliveries', () => {
  it('pushes a like, encrypted and signed, without holding up the like’s answer', async () => {
    const alice = await signIn(t.app);
    const bob = await signIn(t.app);
    const post = await createPost(t.app, alice);
    const browser = browserKeys();
    expect((await subscribe(alice, '/slow', browser)).statusCode).toBe(201);

    // The push service answers only once the like has been answered: were the like waiting for
    // the push, neither would ever end.
    let likeAnswered!: () => void;
    const answered = new Promise<void>((resolve) => (likeAnswered = resolve));
    receiver.on('/slow', async () => (await answered, 201));
    const liked = await like(bob, post._id);
    expect(liked.statusCode).toBe(200);
    likeAnswered();

    const [got] = await receiver.arrived('/slow');
    const claims = checkVapid(got, serverKey);
    expect(claims.aud).toBe(receiver.origin);
    expect(claims.sub).toBe('mailto:ops@posts.example');
    expect(Number(claims.exp)).toBeGreaterThan(Date.now() / 1000);
    expect(Number(got.headers.ttl)).toBeGreaterThan(0);
    expect(got.headers.urgency).toBe('low');
    const payload = decrypt(got, browser);
    const [notification] = (
      await t.app.inject({ method: 'GET', url: '/api/notifications', headers: alice.headers })
    ).json() as { id: string }[];
    expect(payload).toMatchObject({
      title: `${bob.username} liked your post`,
      notification_type: 'like',
      notification_id: notification.id,
      url: `${t.config.siteUrl}/post/${post._id}`,
      // No avatar: the app's icon (a file that exists: tests/server/pwa.test.ts).
      icon: `${t.config.siteUrl}/icons/icon-192.png`,
    });
    expect(payload.image).toBe(post.image.startsWith('/') ? `${t.config.siteUrl}${post.image}` : post.image);
    expect(payload.access_token).toBeUndefined();
  });

  it('pushes to each of the person’s devices, and only the kinds each chose', async () => {
    const alice = await signIn(t.app);
    const bob = await signIn(t.app);
    const post = await createPost(t.app, alice);
    const phone = browserKeys();
    const laptop = browserKeys();
    const quiet = browserKeys();
    expect((await subscribe(alice, '/phone', phone)).statusCode).toBe(201);
    expect((await subscribe(await anotherSession(alice), '/laptop', laptop)).statusCode).toBe(201);
    expect(
      (await subscribe(await anotherSession(alice), '/quiet', quiet, { alerts: { like: false } })).statusCode,
    ).toBe(201);
    await like(bob, post._id);
    const [toPhone] = await receiver.arrived('/phone');
    const [toLaptop] = await receiver.arrived('/laptop');
    expect(decrypt(toPhone, phone).title).toBe(`${bob.username} liked your post`);
    expect(decrypt(toLaptop, laptop).title).toBe(`${bob.username} liked your post`);
    // A follow reaches all three (the quiet one turned off likes only).
    const follow = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${alice.username}/follow`,
      headers: bob.headers,
    });
    expect(follow.statusCode).toBe(200);
    const [toQuiet] = await receiver.arrived('/quiet');
    expect(decrypt(toQuiet, quiet)).toMatchObject({
      title: `${bob.username} followed you`,
      notification_type: 'follow',
      url: `${t.config.siteUrl}/profile/${bob.username}`,
    });
    await push().deliveries.settled();
    expect(receiver.received.filter((p) => p.path === '/quiet')).toHaveLength(1);
    expect(receiver.received.filter((p) => p.path === '/phone')).toHaveLength(2);
  });

  it('follows the policy: from people followed only', async () => {
    const alice = await signIn(t.app);
    const [bob, carol] = [await signIn(t.app), await signIn(t.app)];
    const post = await createPost(t.app, alice);
    const browser = browserKeys();
    expect((await subscribe(alice, '/followed-only', browser, { policy: 'followed' })).statusCode).toBe(201);
    const follow = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${carol.username}/follow`,
      headers: alice.headers,
    });
    expect(follow.statusCode).toBe(200);
    await like(bob, post._id);
    await like(carol, post._id);
    await push().deliveries.settled();
    const got = receiver.received.filter((p) => p.path === '/followed-only');
    expect(got.map((p) => decrypt(p, browser).title)).toEqual([`${carol.username} liked your post`]);
  });

  it('pushes nothing to a signed-out browser', async () => {
    const alice = await signIn(t.app);
    const bob = await signIn(t.app);
    const post = await createPost(t.app, alice);
    const elsewhere = await anotherSession(alice);
    expect((await subscribe(alice, '/kept', browserKeys())).statusCode).toBe(201);
    expect((await subscribe(elsewhere, '/signed-out', browserKeys())).statusCode).toBe(201);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: elsewhere.headers });
    expect(out.statusCode).toBeLessThan(300);
    await like(bob, post._id);
    await receiver.arrived('/kept');
    await push().deliveries.settled();
    expect(receiver.received.filter((p) => p.path === '/signed-out')).toHaveLength(0);
  });

  it('deletes a subscription the push service answers 410', async () => {
    const alice = await signIn(t.app);
    const bob = await signIn(t.app);
    const post = await createPost(t.app, alice);
    receiver.on('/gone', () => 410);
    expect((await subscribe(alice, '/gone', browserKeys())).statusCode).toBe(201);
    await like(bob, post._id);
    await receiver.arrived('/gone');
    await push().deliveries.settled();
    const read = await readUntil(
      () => t.app.inject({ method: 'GET', url: '/api/push/subscription', headers: alice.headers }),
      (res) => res.statusCode === 404,
    );
    expect(read.statusCode).toBe(404);
  });

  it('tries again after a 5xx, and gives up after the last retry', async () => {
    const alice = await signIn(t.app);
    const bob = await signIn(t.app);
    const post = await createPost(t.app, alice);
    const browser = browserKeys();
    let answers = 0;
    receiver.on('/flaky', () => (++answers === 1 ? 503 : 201));
    receiver.on('/down', () => 500);
    expect((await subscribe(alice, '/flaky', browser)).statusCode).toBe(201);
    expect((await subscribe(await anotherSession(alice), '/down', browserKeys())).statusCode).toBe(201);
    await like(bob, post._id);
    const [first, second] = await receiver.arrived('/flaky', 2);
    expect(decrypt(second, browser)).toEqual(decrypt(first, browser));
    // One try and two retries, then it is dropped; the subscription stays (only 404/410 end it).
    await receiver.arrived('/down', 3);
    await readUntil(
      async () => push().deliveries.depth(),
      (depth) => depth === 0,
    );
    expect(receiver.received.filter((p) => p.path === '/down')).toHaveLength(3);
    expect(receiver.received.filter((p) => p.path === '/flaky')).toHaveLength(2);
    const rows = await t.db.kysely
      .selectFrom('push_subscriptions')
      .select('endpoint')
      .where('user_id', '=', alice.id)
      .execute();
    expect(rows).toHaveLength(2);
  });

  it('does not push a notification read before its turn came', async () => {
    const alice = await signIn(t.app);
    const bob = await signIn(t.app);
    const post = await createPost(t.app, alice);
    // Five devices, each held by the push service: four pushes take every slot, the fifth waits.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const paths = ['/held1', '/held2', '/held3', '/held4', '/held5'];
    for (const path of paths) {
      receiver.on(path, async () => (await released, 201));
      expect((await subscribe(await anotherSession(alice), path, browserKeys())).statusCode).toBe(201);
    }
    await like(bob, post._id);
    const isHeld = (p: Received) => paths.includes(p.path);
    await readUntil(
      async () => receiver.received.filter(isHeld).length,
      (n) => n >= 4,
    );
    const read = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: alice.headers,
      payload: {},
    });
    expect(read.statusCode).toBe(200);
    release();
    await push().deliveries.settled();
    expect(receiver.received.filter(isHeld)).toHaveLength(4);
  });
});

describe('the client API', () => {
  let url: string;
  beforeAll(async () => {
    url = await listenOn(t);
  });

  it('names the key in the instance, where apps read it', async () => {
    const instance = await clientFor(url, '').v2.instance.fetch();
    expect(instance.configuration.vapid.publicKey).toBe(serverKey);
  });

  it('creates, gets, updates and deletes a subscription, as Mastodon does', async () => {
    const alice = await signIn(t.app);
    const token = await userToken(url, alice, 'read write push');
    const api = clientFor(url, token);
    const browser = browserKeys();
    const created = await api.v1.push.subscription.create({
      subscription: { endpoint: `${receiver.origin}/app`, keys: browser.keys },
      data: { alerts: { favourite: true, follow: false, mention: true } },
      policy: 'all',
    });
    expect(created).toMatchObject({
      endpoint: `${receiver.origin}/app`,
      serverKey,
      policy: 'all',
      alerts: { favourite: true, follow: false, mention: true, reblog: false, poll: false },
    });
    expect(typeof created.id).toBe('string');
    expect(await api.v1.push.subscription.fetch()).toEqual(created);
    const updated = await api.v1.push.subscription.update({ data: { alerts: { follow: true, favourite: true } } });
    expect(updated.alerts).toMatchObject({ follow: true, favourite: true, mention: false });

    // A like reaches the app's subscription, with its token and Mastodon's type.
    const bob = await signIn(t.app);
    const post = await createPost(t.app, alice);
    await like(bob, post._id);
    const [got] = await receiver.arrived('/app');
    checkVapid(got, serverKey);
    expect(decrypt(got, browser)).toMatchObject({
      access_token: token,
      notification_type: 'favourite',
      title: `${bob.username} liked your post`,
    });

    await api.v1.push.subscription.remove();
    const error = await api.v1.push.subscription.fetch().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MastoHttpError);
    expect((error as MastoHttpError).statusCode).toBe(404);
  });

  it('takes the form encoding and needs the push scope', async () => {
    const alice = await signIn(t.app);
    const token = await userToken(url, alice, 'read write push');
    const { keys } = browserKeys();
    const form = new URLSearchParams({
      'subscription[endpoint]': `${receiver.origin}/form`,
      'subscription[keys][p256dh]': keys.p256dh,
      'subscription[keys][auth]': keys.auth,
      'data[alerts][follow]': 'true',
      'data[alerts][favourite]': 'false',
      'data[policy]': 'follower',
    });
    const res = await fetch(`${url}/api/v1/push/subscription`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      policy: 'follower',
      alerts: { follow: true, favourite: false },
      standard: true,
    });
    const bad = await fetch(`${url}/api/v1/push/subscription`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: new URLSearchParams({ 'subscription[endpoint]': 'nope' }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/endpoint must be a URL/);

    const readOnly = await userToken(url, alice, 'read');
    const refused = await fetch(`${url}/api/v1/push/subscription`, {
      headers: { authorization: `Bearer ${readOnly}` },
    });
    expect(refused.status).toBe(403);
  });
});
