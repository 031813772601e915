/**
 * Two instances on one database, beyond the event table's own test (invalidationTable.test.ts):
 * events published by another process (`npm run admin`) and by a password change reach the other
 * instance through Redis; alone (no Redis) each instance keeps its own caches for their time on
 * PostgreSQL (on SQLite each notices the other's commits: outsideWrites.test.ts).
 * The caches' times are a minute here, so only the bus can make the other instance see a change.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { type SignedInUser, type TestApp, busSettler, createTestApp, readUntil, signIn } from './helpers';

const LONG_CACHES = { SESSION_CACHE_MS: '60000', HOME_FEED_SYNC_MS: '60000', POST_CACHE_MS: '60000' };

const getMe = (t: TestApp, user: SignedInUser) =>
  t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: user.headers });

describe.runIf(process.env.TEST_REDIS_URL)('with Redis, two instances', () => {
  const env = { ...LONG_CACHES, REDIS_URL: process.env.TEST_REDIS_URL! };
  let one: TestApp;
  let two: TestApp;
  let settle: () => Promise<void>;
  beforeAll(async () => {
    one = await createTestApp(env);
    two = await createTestApp(env, { sameDatabaseAs: one });
    settle = await busSettler(one, two);
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('a password change through one ends the other sessions on the other, and keeps its own', async () => {
    const user = await signIn(one.app);
    const stranger = await signIn(one.app); // another user: untouched
    const phone = { ...user, headers: { cookie: '' } };
    const login = await one.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
    });
    phone.headers.cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    for (const who of [user, phone, stranger]) expect((await getMe(two, who)).statusCode).toBe(200);

    const change = await one.app.inject({
      method: 'PATCH',
      url: '/api/users/updateAccount',
      headers: user.headers,
      payload: { email: user.email, password: user.password, newPassword: 'another horse battery' },
    });
    expect(change.statusCode).toBe(200);
    await settle();
    expect((await getMe(two, phone)).statusCode).toBe(401);
    expect((await getMe(two, user)).statusCode).toBe(200);
    expect((await getMe(two, stranger)).statusCode).toBe(200);
  });

  it('a role changed with `npm run admin` (another process) is the role both see', async () => {
    const user = await signIn(one.app);
    const token = user.cookies.access_token;
    for (const t of [one, two]) expect((await t.app.ctx.auth.authenticate(token))?.role).toBe('member');
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.resolve(import.meta.dirname, '../../server/cli/admin.ts'), 'grant', user.username],
      {
        env: { ...process.env, DATA_DIR: one.dataDir, DATABASE_URL: one.config.databaseUrl, REDIS_URL: env.REDIS_URL },
      },
    );
    // The tool's PUBLISH was answered before it quit: a marker sent now arrives after it.
    await settle();
    const roles = await Promise.all([one, two].map((t) => t.app.ctx.auth.authenticate(token)));
    expect(roles.map((seen) => seen?.role)).toEqual(['admin', 'admin']);
  });
});

describe('without Redis, two instances', () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await createTestApp(LONG_CACHES);
    two = await createTestApp(LONG_CACHES, { sameDatabaseAs: one });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('a logout ends the session at once where it was made, and on the other once it hears of the commit', async () => {
    const user = await signIn(one.app);
    expect((await getMe(one, user)).statusCode).toBe(200);
    expect((await getMe(two, user)).statusCode).toBe(200);
    await one.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers });
    expect((await getMe(one, user)).statusCode).toBe(401);
    // SQLite: the other notices the commit before its next request; PostgreSQL: once its LISTEN
    // hears it, after the commit (outsideWrites.test.ts, postgresWrites.test.ts).
    const statusOnTwo = async () => (await getMe(two, user)).statusCode;
    if (process.env.TEST_DB === 'postgres') await readUntil(statusOnTwo, (status) => status === 401);
    expect(await statusOnTwo()).toBe(401);
  });
});
