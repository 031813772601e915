/**
 * A hung Redis (issue 68, item 35): one that accepts connections and never answers, as a stopped
 * (SIGSTOP) or drowning server does. Every Redis call is bounded by `REDIS_COMMAND_TIMEOUT_MS`, after
 * which the step runs in this process (`instance/redisFallback.ts`): sign-ins and writes answer, and
 * the health check says `redis: "down"`. No time is measured: without the bound, these requests (and
 * the app's start) wait for ever and the test's own timeout fails it.
 */
import { once } from 'node:events';
import net from 'node:net';
import { createPost } from './factories';
import { type TestApp, createTestApp, signIn } from './helpers';

/** A TCP server on loopback that takes every connection and every byte, and never answers. */
async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * A proxy to a real Redis that can freeze: from `freeze()` on, nothing passes either way and the
 * connections stay open (the hang comes after the app's connection was ready).
 */
async function freezingProxy(target: URL) {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (data) => frozen || upstream.write(data));
    upstream.on('data', (data) => frozen || client.write(data));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => void (frozen = true),
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

async function health(t: TestApp) {
  const res = await t.app.inject({ method: 'GET', url: '/api/instance/health' });
  return { statusCode: res.statusCode, ...(res.json() as { status: string; redis?: string }) };
}

async function signsInAndWrites(t: TestApp) {
  const ann = await signIn(t.app); // sign-up and sign-in: rate limits and the lockout
  const post = await createPost(t.app, ann); // an upload and a post: rate limits, bus messages
  const comment = await t.app.inject({
    method: 'POST',
    url: `/api/posts/${post._id}/comments`,
    headers: ann.headers,
    payload: { message: 'Said while Redis hung' },
  });
  expect(comment.statusCode).toBe(201);
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: ann.email, password: ann.password },
  });
  expect(login.statusCode).toBe(200);
}

describe('a Redis that accepts connections and never answers', () => {
  let silent: Awaited<ReturnType<typeof silentServer>>;
  let t: TestApp;
  beforeAll(async () => {
    silent = await silentServer();
    t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${silent.port}`, REDIS_COMMAND_TIMEOUT_MS: '200' });
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await silent?.close();
  }, 30_000);

  it('starts, signs in and writes, and health says Redis is down', async () => {
    await signsInAndWrites(t);
    expect(await health(t)).toMatchObject({ statusCode: 200, status: 'ok', database: 'up', redis: 'down' });
  }, 30_000);
});

describe.runIf(process.env.TEST_REDIS_URL)('a Redis that stops answering on a ready connection', () => {
  let proxy: Awaited<ReturnType<typeof freezingProxy>>;
  let t: TestApp;
  beforeAll(async () => {
    const target = new URL(process.env.TEST_REDIS_URL!);
    proxy = await freezingProxy(target);
    t = await createTestApp({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}${target.pathname}`,
      REDIS_COMMAND_TIMEOUT_MS: '200',
    });
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  }, 30_000);

  it('keeps signing in and writing once it hangs, and health says Redis is down', async () => {
    expect(await health(t)).toMatchObject({ statusCode: 200, redis: 'up' });
    proxy.freeze();
    await signsInAndWrites(t);
    expect(await health(t)).toMatchObject({ statusCode: 200, status: 'ok', redis: 'down' });
  }, 30_000);
});

describe('without Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('health names no Redis', async () => {
    expect(await health(t)).not.toHaveProperty('redis');
  });
});
