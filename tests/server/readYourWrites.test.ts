/**
 * Reading one's own writes on another instance (issue 72, item 2): a write's answer carries its bus
 * position (the `seen_writes` cookie); the next request with it, on an instance whose bus is late,
 * waits until that instance heard the write, or, past the bound, starts its caches over. Without
 * the cookie the late instance still answers from its caches (what the cookie is for). The
 * second instance reaches Redis through a relay that holds its messages back (`lateBus`).
 */
import { Redis } from 'ioredis';
import { redisBus } from '../../server/instance/bus';
import { SEEN_WRITES_COOKIE, readYourWrites } from '../../server/instance/readYourWrites';
import { balancer } from './balancer';
import { type TestApp, createTestApp, signIn } from './helpers';
import { type LateBus, lateBus } from './lateBus';
import { uploadImage } from './multipart';

// SQLite's check for other processes' commits (which would see the other instance's) once an hour:
// only the bus tells the second instance of the first one's writes, as on PostgreSQL.
const LONG_CACHES = {
  SESSION_CACHE_MS: '60000',
  HOME_FEED_SYNC_MS: '60000',
  POST_CACHE_MS: '60000',
  OUTSIDE_WRITES_CHECK_MS: '3600000',
};

const readPost = async (t: TestApp, cookies: Map<string, string>, id: string) => {
  const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const res = await t.app.inject({ method: 'GET', url: `/api/posts/${id}`, headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json() as { likesCount: number };
};

describe.runIf(process.env.TEST_REDIS_URL)('reading one’s own writes through another instance', () => {
  let late: LateBus;
  let instances: TestApp[] = [];
  afterEach(async () => {
    late?.release();
    for (const t of instances.toReversed()) await t.close();
    instances = [];
    await late?.close();
  });

  /** Two instances, the second's bus late while held; heartbeats every `heartbeatMs`. */
  async function pair(heartbeatMs: number) {
    const env = {
      ...LONG_CACHES,
      REDIS_URL: process.env.TEST_REDIS_URL!,
      BUS_HEARTBEAT_MS: String(heartbeatMs),
      // A busy machine must not time a heartbeat's PUBLISH out: a lost one leaves the instance deaf till the next.
      REDIS_COMMAND_TIMEOUT_MS: '10000',
    };
    late = await lateBus(env.REDIS_URL);
    const one = await createTestApp(env);
    const two = await createTestApp({ ...env, REDIS_URL: late.url }, { sameDatabaseAs: one });
    instances = [one, two];
    for (const t of instances) await t.app.ctx.bus.ready();
    const ann = await signIn(one.app);
    const browser = balancer(instances, new Map(Object.entries(ann.cookies)));
    const post = async (message: string) => {
      const image = (await uploadImage(one.app, ann, 'post')).secure_url;
      return browser.request('POST', '/api/posts/create', { message, tags: ['mine'], image }, 0);
    };
    // Heard from its start, before anything is held: the late instance knows the first one.
    const first = ((await post('first')).body as { _id: string })._id;
    // And hears its own heartbeats back (else it starts over before every request: `deaf`).
    while (
      two.app.ctx.bus.caughtUp(one.app.ctx.bus.position().id, one.app.ctx.bus.position().seq) !== true ||
      !two.app.ctx.bus.hearing()
    )
      await new Promise((resolve) => setTimeout(resolve, 5));
    return { one, two, browser, first };
  }

  it('waits for the write to arrive, and answers with it; without the cookie the late instance is stale', async () => {
    // Heartbeats every 10 s: the late instance neither gives up waiting nor stops trusting its bus here.
    const { one, two, browser, first } = await pair(10_000);
    const likes = async (t: TestApp, cookies: Map<string, string>) => (await readPost(t, cookies, first)).likesCount;
    // Kept by two: a row is kept from its second read on (cache/sharedRows.ts).
    for (let read = 0; read < 2; read++) expect(await likes(two, browser.cookies)).toBe(0);
    late.hold();
    expect((await browser.request('PATCH', `/api/posts/${first}/like`, undefined, 0)).status).toBe(200);
    expect(browser.cookies.get(SEEN_WRITES_COOKIE)).toBeTruthy();

    const withoutCookie = new Map(browser.cookies);
    withoutCookie.delete(SEEN_WRITES_COOKIE);
    expect(await likes(two, withoutCookie)).toBe(0);

    const read = likes(two, browser.cookies);
    late.release();
    expect(await read).toBe(1);
    expect(two.app.ctx.busMissed.counts().get('behind')).toBe(0);
    expect(await likes(one, browser.cookies)).toBe(1);
  });

  it('starts the caches over when the write has not arrived within the bound, and answers with it', async () => {
    const { two, browser, first } = await pair(20);
    expect((await readPost(two, browser.cookies, first)).likesCount).toBe(0);
    late.hold();
    expect((await browser.request('PATCH', `/api/posts/${first}/like`, undefined, 0)).status).toBe(200);
    expect((await readPost(two, browser.cookies, first)).likesCount).toBe(1);
    expect(two.app.ctx.busMissed.counts().get('behind')).toBeGreaterThan(0);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('the seen_writes cookie', () => {
  const redis = new Redis(process.env.TEST_REDIS_URL!);
  const listening = new Redis(process.env.TEST_REDIS_URL!);
  // A writer, and a reader that hears nothing of it: every position of the writer is one it waits for.
  const writer = redisBus(redis, { warn: () => {} });
  const reader = redisBus(listening, { warn: () => {} }, { faults: () => {} });
  afterAll(async () => {
    for (const bus of [writer, reader]) await bus.close();
    for (const connection of [redis, listening]) await connection.quit();
  });

  const cookieOf = (secret: string, at = Date.now) => {
    let set = '';
    readYourWrites({ bus: writer, secret, secure: false, behind: () => {}, now: at }).afterWrite(
      { cookies: {} } as never,
      { setCookie: (_name: string, value: string) => (set = value) } as never,
    );
    return set;
  };
  const waits = (cookie: string) =>
    readYourWrites({ bus: reader, secret: 'the secret', secure: false, behind: () => {} }).catchUp({
      cookies: { [SEEN_WRITES_COOKIE]: cookie },
    } as never);

  it('makes a reader wait for a position it has not heard; is ignored when forged, tampered with or expired', async () => {
    writer.publish('x', 'a write');
    expect(cookieOf('the secret')).toMatch(/^\d+~[0-9a-f-]{36}:1\.[\w-]{22}$/);
    expect(waits(cookieOf('the secret'))).toBeInstanceOf(Promise);
    expect(waits(cookieOf('another secret'))).toBeUndefined();
    expect(waits(cookieOf('the secret').replace(':1.', ':9.'))).toBeUndefined();
    expect(waits(cookieOf('the secret', () => Date.now() - 120_000))).toBeUndefined();
    expect(waits('garbage')).toBeUndefined();
  });

  it('checks a cookie once, yet ignores it once it has expired', async () => {
    writer.publish('x', 'a write');
    let clock = Date.now();
    const cookie = cookieOf('the secret', () => clock);
    const same = readYourWrites({
      bus: reader,
      secret: 'the secret',
      secure: false,
      behind: () => {},
      now: () => clock,
    });
    const wait = (value: string) => same.catchUp({ cookies: { [SEEN_WRITES_COOKIE]: value } } as never);
    expect(wait(cookie)).toBeInstanceOf(Promise);
    expect(wait(cookie)).toBeInstanceOf(Promise);
    expect(wait(cookie.replace(/:(\d+)\./, ':99.'))).toBeUndefined();
    clock += 61_000;
    expect(wait(cookie)).toBeUndefined();
  });
});
