/**
 * The database unreachable (issue 36, item 11): requests answer 503 `DatabaseUnavailable` with
 * `Retry-After` rather than 500, and `GET /api/instance/health` says `database: "down"` (503) so a
 * balancer stops sending traffic. PostgreSQL is reached through a TCP proxy the test cuts (the
 * machine's server is shared); SQLite is held locked by another connection, or closed.
 */
import net from 'node:net';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE } from '../../server/db/errors';
import { type TestApp, createTestApp, signIn } from './helpers';

/** A TCP proxy to `target` on a free port: `cut` refuses new connections and drops the open ones. */
async function tcpProxy(target: { host: string; port: number }) {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
    );
  const port = await listen(0);
  return {
    port,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
    restore: () => listen(port),
  };
}

const health = async (t: TestApp) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/instance/health' });
  return {
    status: res.statusCode,
    retryAfter: res.headers['retry-after'],
    requestId: res.headers['x-request-id'],
    body: res.json(),
  };
};

/** The answer's JSON, with the id (as in its `X-Request-Id`) a person can quote. */
const unavailable = (res: { headers: Record<string, unknown> }) => ({
  message: DATABASE_UNAVAILABLE,
  code: 'DatabaseUnavailable',
  requestId: res.headers['x-request-id'],
});

describe.runIf(process.env.TEST_DB === 'postgres')('PostgreSQL cut off', () => {
  let direct: TestApp;
  let proxied: TestApp;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  beforeAll(async () => {
    direct = await createTestApp();
    const url = new URL(direct.config.databaseUrl);
    proxy = await tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    proxied = await createTestApp({ DATABASE_URL: url.toString() }, { sameDatabaseAs: direct });
  });
  afterAll(async () => {
    await proxied?.close();
    await proxy?.cut(); // the proxy's own listener
    await direct?.close();
  });

  it('answers 503 with Retry-After while the database is unreachable, health says so, and both recover', async () => {
    const ann = await signIn(proxied.app);
    const bob = await signIn(proxied.app);
    expect(await health(proxied)).toMatchObject({ status: 200, body: { status: 'ok', database: 'up' } });

    await proxy.cut();
    const follow = await proxied.app.inject({
      method: 'PATCH',
      url: `/api/users/${bob.username}/follow`,
      headers: ann.headers,
    });
    expect([follow.statusCode, follow.headers['retry-after'], follow.json()]).toEqual([
      503,
      String(DATABASE_RETRY_AFTER_SECONDS),
      unavailable(follow),
    ]);
    const login = await proxied.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: bob.email, password: bob.password },
    });
    expect([login.statusCode, login.json()]).toEqual([503, unavailable(login)]);
    expect(await health(proxied)).toMatchObject({
      status: 503,
      retryAfter: String(DATABASE_RETRY_AFTER_SECONDS),
      body: { status: 'unavailable', database: 'down', instance: proxied.config.instanceId },
    });

    await proxy.restore();
    expect(await health(proxied)).toMatchObject({ status: 200, body: { database: 'up' } });
    const again = await proxied.app.inject({
      method: 'PATCH',
      url: `/api/users/${bob.username}/follow`,
      headers: ann.headers,
    });
    expect(again.statusCode).toBe(200);
  });
});

describe.runIf(process.env.TEST_DB !== 'postgres')('SQLite out of reach', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a write that cannot have the database (another process holds it) answers 503, not 500', async () => {
    const [ann, bob] = [await signIn(t.app), await signIn(t.app)];
    const other = new SQLite(path.join(t.dataDir, 'test.db'));
    try {
      other.exec('BEGIN IMMEDIATE'); // held until the answer came: busy_timeout runs out
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/users/${bob.username}/follow`,
        headers: ann.headers,
      });
      expect([res.statusCode, res.headers['retry-after'], res.json()]).toEqual([
        503,
        String(DATABASE_RETRY_AFTER_SECONDS),
        unavailable(res),
      ]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const res = await t.app.inject({ method: 'PATCH', url: `/api/users/${bob.username}/follow`, headers: ann.headers });
    expect(res.statusCode).toBe(200);
  });

  it('health reads the database: closed, it says down (503)', async () => {
    expect(await health(t)).toMatchObject({ status: 200, body: { status: 'ok', database: 'up' } });
    const db = await createTestApp({}, { sameDatabaseAs: t });
    await db.db.close();
    const down = await health(db);
    expect(down).toMatchObject({ status: 503, body: { status: 'unavailable', database: 'down' } });
    expect(down.body.requestId).toBe(down.requestId);
    db.db.close = async () => {}; // closed already
    await db.close();
  });
});
