/**
 * Redis away (issue 36, item 5): it carries rate-limit counts, lockouts and messages, not data, so
 * two instances sharing it keep answering writes and sign-ins while it is stopped, and an instance
 * that may have missed the other's messages starts its caches over once it hears it again. The test
 * runs a Redis server of its own on a free port (the machine's, which others use, is left alone).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { Redis } from 'ioredis';
import { createPost } from './factories';
import { type TestApp, busSettler, createTestApp, signIn } from './helpers';

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** A throwaway Redis on `port`: started when it answers a PING, stopped when the process has exited. */
function ownRedis(port: number) {
  let server: ChildProcess | null = null;
  return {
    async start() {
      if (server && server.exitCode === null && server.signalCode === null) return; // running
      server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      const probe = new Redis({ port, host: '127.0.0.1', retryStrategy: () => 50 });
      probe.on('error', () => {}); // refused until the server listens
      try {
        await probe.ping();
      } finally {
        probe.disconnect();
      }
    },
    async stop() {
      if (!server || server.exitCode !== null || server.signalCode !== null) return;
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resolves once `count` connections listen on the bus's Redis channel (the instances subscribed again). */
async function subscribers(port: number, count: number): Promise<void> {
  const probe = new Redis({ port, host: '127.0.0.1' });
  try {
    for (;;) {
      const [, listening] = (await probe.pubsub('NUMSUB', 'posts:bus:0:messages')) as [string, number];
      if (Number(listening) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    probe.disconnect();
  }
}

describe('Redis stopped under two instances', () => {
  let port: number;
  let redis: ReturnType<typeof ownRedis>;
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    port = await freePort();
    redis = ownRedis(port);
    await redis.start();
    // Caches that would keep a stale follow list for a minute unless told.
    const env = { REDIS_URL: `redis://127.0.0.1:${port}`, POST_CACHE_MS: '60000', HOME_FEED_SYNC_MS: '60000' };
    one = await createTestApp(env);
    two = await createTestApp(env, { sameDatabaseAs: one });
  });
  afterAll(async () => {
    await redis?.start().catch(() => {}); // the apps' connections close cleanly
    await two?.close();
    await one?.close();
    await redis?.stop();
  });

  it('keeps answering writes and sign-ins, and the other instance learns what it missed once Redis is back', async () => {
    const ann = await signIn(one.app);
    const bob = await signIn(one.app);
    const post = await createPost(one.app, bob);
    const homeOnTwo = async () =>
      (await two.app.inject({ method: 'GET', url: '/api/posts?feed=following', headers: ann.headers })).json() as {
        _id: string;
      }[];
    expect(await homeOnTwo()).toEqual([]); // ann follows nobody: two keeps her follow list
    const settle = await busSettler(one, two);

    await redis.stop();
    const follow = await one.app.inject({
      method: 'PATCH',
      url: `/api/users/${bob.username}/follow`,
      headers: ann.headers,
    });
    expect([follow.statusCode, follow.body.includes('InternalError')]).toEqual([200, false]);
    const comment = await one.app.inject({
      method: 'POST',
      url: `/api/posts/${post._id}/comments`,
      headers: ann.headers,
      payload: { message: 'Said while Redis was away' },
    });
    expect(comment.statusCode).toBe(201);
    const login = await two.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: bob.email, password: bob.password },
    });
    expect(login.statusCode).toBe(200);
    const wrong = await two.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: bob.email, password: 'not the password' },
    });
    expect([400, 401]).toContain(wrong.statusCode); // the lockout counts in the process meanwhile

    await redis.start();
    await subscribers(port, 2); // both hear the bus again
    await settle();
    expect((await homeOnTwo()).map((p) => p._id)).toEqual([post._id]);
  });
});
