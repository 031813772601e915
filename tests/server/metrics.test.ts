/**
 * `GET /metrics` (issue 34, item 1): Prometheus text on the `METRICS_PORT` listener and, with the
 * bearer token, on the public port; a plain request there is 404. The counters follow the traffic.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import { redisBus } from '../../server/instance/bus';
import { loadConfig } from '../../server/config';
import { imageJobs } from '../../server/media/pipeline';
import { createPost } from './factories';
import { openStream } from './sse';
import { type TestApp, createTestApp, signIn } from './helpers';

const TOKEN = 'metrics-token-for-tests-0123456789';

// Stands in for Next.js, which writes the raw response itself.
async function pageHandler(_req: IncomingMessage, res: ServerResponse) {
  res.setHeader('content-type', 'text/html');
  res.end('<p>a page</p>');
}

/** Prometheus text as `{ name, labels, value }` samples. */
function samples(text: string) {
  const out: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    out.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return out;
}

/** The value of the one sample of `name` whose labels include `labels` (0 when there is none yet). */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = samples(text).filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

describe('metrics on their own listener and behind the token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      {
        METRICS_PORT: '0',
        METRICS_TOKEN: TOKEN,
        RATE_LIMIT_EXPORTS_PER_USER: '1',
        // Long enough that a second read within the test is always a hit, however slow the machine.
        SESSION_CACHE_MS: '600000',
        POST_CACHE_MS: '600000',
      },
      { pageHandler },
    );
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const address = t.app.metricsAddress()!;
    const res = await fetch(`http://127.0.0.1:${address.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  it('serves Prometheus text on METRICS_PORT, bound to loopback, and nothing else there', async () => {
    const address = t.app.metricsAddress()!;
    expect(address.address).toBe('127.0.0.1');
    expect(address.port).toBeGreaterThan(0);
    const text = await scrape();
    for (const name of [
      'posts_process_resident_memory_bytes',
      'posts_nodejs_heap_size_used_bytes',
      'posts_nodejs_eventloop_lag_seconds',
      'posts_nodejs_eventloop_lag_p99_seconds',
      'posts_sse_streams',
      'posts_mail_outbox_pending',
    ])
      expect(samples(text).some((s) => s.name === name)).toBe(true);
    expect(valueOf(text, 'posts_image_jobs', { state: 'running' })).toBe(0);
    expect(valueOf(text, 'posts_image_jobs', { state: 'queued' })).toBe(0);
    expect(text).not.toMatch(/instance="/);
    expect((await fetch(`http://127.0.0.1:${address.port}/api/instance`)).status).toBe(404);
  });

  it('answers on the public port only with the bearer token; otherwise 404 like an unknown path', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect([plain.statusCode, plain.json()]).toEqual([404, { message: 'Not found: GET /metrics', code: 'NotFound' }]);
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(wrong.statusCode, authorization).toBe(404);
    }
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE posts_http_requests_total counter');
  });

  it('counts requests by route pattern and status, with their durations', async () => {
    const ann = await signIn(t.app);
    const before = await scrape();
    const profile = { method: 'GET', route: '/api/users/:username', status_code: '200' };
    const missing = { method: 'GET', route: '/api/users/:username', status_code: '404' };
    const unmatched = { method: 'GET', route: 'unmatched', status_code: '404' };
    const postUnmatched = { method: 'POST', route: 'unmatched', status_code: '404' };
    const pages = { method: 'GET', route: '/*', status_code: '200' };
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/api/users/${ann.username}`, headers: ann.headers });
      expect(res.statusCode).toBe(200);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/nobody-here', headers: ann.headers })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/no/such/route' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/no-such-page' })).statusCode).toBe(404);
    for (const url of ['/login', '/createAccount'])
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const after = await scrape();
    const rise = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(rise('posts_http_requests_total', profile)).toBe(3);
    expect(rise('posts_http_request_duration_seconds_count', profile)).toBe(3);
    expect(rise('posts_http_request_duration_seconds_bucket', { ...profile, le: '+Inf' })).toBe(3);
    expect(valueOf(after, 'posts_http_request_duration_seconds_sum', profile)).toBeGreaterThan(0);
    expect(rise('posts_http_requests_total', missing)).toBe(1);
    expect(rise('posts_http_requests_total', unmatched)).toBe(1);
    expect(rise('posts_http_requests_total', postUnmatched)).toBe(1);
    // The pages, which Next.js answers on the raw response, are counted too.
    expect(rise('posts_http_requests_total', pages)).toBe(2);
    // Paths asked never become labels: only patterns do.
    expect(after).not.toContain(ann.username);
    expect(after).not.toContain('nobody-here');
  });

  it("moves each cache's hits, misses and size, and times the database's statements", async () => {
    const before = await scrape();
    const ann = await signIn(t.app);
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url: '/api/posts', headers: ann.headers })).statusCode).toBe(200);
    const after = await scrape();
    const rise = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    // The session cookie: read once from the database, then from the cache.
    expect(rise('posts_cache_misses_total', { cache: 'sessions' })).toBeGreaterThanOrEqual(1);
    expect(rise('posts_cache_hits_total', { cache: 'sessions' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(after, 'posts_cache_size', { cache: 'sessions' })).toBeGreaterThanOrEqual(1);
    // Everyone's first page is kept from its second read: the third is a hit.
    expect(rise('posts_cache_misses_total', { cache: 'post_pages' })).toBeGreaterThanOrEqual(1);
    expect(rise('posts_cache_hits_total', { cache: 'post_pages' })).toBeGreaterThanOrEqual(1);
    for (const cache of ['posts', 'comments', 'comment_pages', 'hidden_authors', 'followees', 'image_infos'])
      expect(samples(after).some((s) => s.name === 'posts_cache_evictions_total' && s.labels.cache === cache)).toBe(
        true,
      );
    expect(rise('posts_db_statement_duration_seconds_count', { kind: 'select' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'posts_db_statement_duration_seconds_count', { kind: 'insert' })).toBeGreaterThanOrEqual(1);
    if (t.db.dialect === 'postgres')
      expect(valueOf(after, 'posts_db_pool_wait_seconds_count')).toBeGreaterThanOrEqual(
        valueOf(before, 'posts_db_pool_wait_seconds_count') + 1,
      );
  });

  it('looks a post read with its comments up once, not again for the comments', async () => {
    const ann = await signIn(t.app);
    const post = await createPost(t.app, ann);
    const before = await scrape();
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/posts/${post._id}`, headers: ann.headers })).statusCode,
    ).toBe(200);
    const after = await scrape();
    const rise = (name: string) => valueOf(after, name, { cache: 'posts' }) - valueOf(before, name, { cache: 'posts' });
    // Its first read: from the database (not kept until read again), and only once.
    expect(rise('posts_cache_misses_total') + rise('posts_cache_hits_total')).toBe(1);
    // No comments: its count says so, and no page of comments is asked for.
    const commentPages = (text: string) =>
      valueOf(text, 'posts_cache_misses_total', { cache: 'comment_pages' }) +
      valueOf(text, 'posts_cache_hits_total', { cache: 'comment_pages' });
    expect(commentPages(after) - commentPages(before)).toBe(0);
  });

  it('shows open streams, waiting mails and image jobs as gauges', async () => {
    const ann = await signIn(t.app);
    await t.app.ctx.outbox.settled(); // the sign-up's verification mail
    const stream = await openStream(t.app, ann.headers);
    // Two uploads' jobs: one holds the slot, the other waits its turn.
    const running = await imageJobs.acquire('someone');
    const queued = imageJobs.acquire('someone else');
    let openMail!: () => void;
    t.app.ctx.outbox.enqueue(() => new Promise<void>((resolve) => (openMail = resolve)));
    try {
      expect(stream.response.status).toBe(200);
      const text = await scrape();
      expect(valueOf(text, 'posts_sse_streams')).toBe(1);
      expect(valueOf(text, 'posts_image_jobs', { state: 'running' })).toBe(1);
      expect(valueOf(text, 'posts_image_jobs', { state: 'queued' })).toBe(1);
      expect(valueOf(text, 'posts_mail_outbox_pending')).toBe(1);
    } finally {
      stream.close();
      running();
      (await queued)();
      // The task starts after the current turn: wait until it holds the gate before opening it.
      await expect.poll(() => typeof openMail).toBe('function');
      openMail();
      await t.app.ctx.outbox.settled();
    }
    const text = await scrape();
    expect(valueOf(text, 'posts_image_jobs', { state: 'running' })).toBe(0);
    expect(valueOf(text, 'posts_mail_outbox_pending')).toBe(0);
  });

  it('counts sign-ups, sign-ins by result and rate-limit refusals', async () => {
    const before = await scrape();
    const ann = await signIn(t.app); // a sign-up and a sign-in
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: ann.email, password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    const exports = [];
    for (let i = 0; i < 2; i++)
      exports.push(
        (await t.app.inject({ method: 'GET', url: '/api/users/me/export', headers: ann.headers })).statusCode,
      );
    expect(exports).toEqual([200, 429]);
    const after = await scrape();
    const rise = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(rise('posts_sign_ups_total')).toBe(1);
    expect(rise('posts_sign_ins_total', { result: 'success' })).toBe(1);
    expect(rise('posts_sign_ins_total', { result: 'failed' })).toBe(1);
    expect(rise('posts_sign_ins_total', { result: 'locked' })).toBe(0);
    expect(rise('posts_rate_limit_refusals_total', { limit: 'exports' })).toBe(1);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('the bus in the metrics', () => {
  it('counts the start-overs a lost bus message caused, by reason', async () => {
    // Another instance's bus on the same Redis; the app loses its second message.
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    const other = redisBus(redis, { warn: () => {} });
    let heard = 0;
    const t = await createTestApp(
      { METRICS_TOKEN: TOKEN, REDIS_URL: process.env.TEST_REDIS_URL! },
      {
        busFaults: (raw, deliver) => {
          if ((JSON.parse(raw) as { channel?: string }).channel === 'unheard-channel' && ++heard === 2) return;
          deliver(raw);
        },
      },
    );
    try {
      await t.app.ctx.bus.ready();
      other.subscribe('unheard-channel', () => {});
      await other.ready();
      const scrape = async () =>
        (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
      expect(valueOf(await scrape(), 'posts_bus_missed_total', { reason: 'gap' })).toBe(0);
      for (const n of [1, 2, 3]) other.publish('unheard-channel', n);
      while (t.app.ctx.bus.caughtUp(other.position().id, 3) !== true) await new Promise((r) => setTimeout(r, 5));
      const text = await scrape();
      expect(valueOf(text, 'posts_bus_missed_total', { reason: 'gap' })).toBe(1);
      for (const reason of ['joined', 'silence', 'rejoined', 'behind', 'deaf'])
        expect(samples(text).some((s) => s.name === 'posts_bus_missed_total' && s.labels.reason === reason)).toBe(true);
    } finally {
      await t.close();
      await other.close();
      await redis.quit();
    }
  });
});

describe('federation in the metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A follower elsewhere whose inbox never answers (a closed loopback port): deliveries fail.
    t = await createTestApp(
      { METRICS_PORT: '0', PUBLIC_URL: 'http://127.0.0.1:3999', FEDERATION_ALLOW_PRIVATE: 'true' },
      { pageHandler },
    );
  });
  afterAll(() => t.close());

  const scrape = async () => (await fetch(`http://127.0.0.1:${t.app.metricsAddress()!.port}/metrics`)).text();

  it('shows the delivery queue’s depth and counts failed delivery attempts', async () => {
    const author = await signIn(t.app);
    const before = await scrape();
    expect(valueOf(before, 'posts_federation_queue_depth')).toBe(0);
    expect(valueOf(before, 'posts_federation_failures_total', { kind: 'delivery' })).toBe(0);
    await t.app.ctx.federation!.data.addRemoteFollower({
      id: crypto.randomUUID(),
      user_id: author.id,
      actor_uri: 'http://127.0.0.1:1/users/far',
      inbox_uri: 'http://127.0.0.1:1/users/far/inbox',
      shared_inbox_uri: null,
      follow_id: 'http://127.0.0.1:1/follows/1',
      created_at: new Date().toISOString(),
    });
    await createPost(t.app, author);
    // The failed attempt waits in the queue for its retry (a minute later).
    await expect
      .poll(async () => valueOf(await scrape(), 'posts_federation_failures_total', { kind: 'delivery' }), {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(1);
    expect(valueOf(await scrape(), 'posts_federation_queue_depth')).toBeGreaterThanOrEqual(1);
  });
});

describe('metrics switched off (neither METRICS_PORT nor METRICS_TOKEN)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has no listener and answers /metrics 404 whatever the header', async () => {
    expect(t.app.metricsAddress()).toBeNull();
    for (const headers of [{}, { authorization: 'Bearer ' }, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
    }
  });

  it('a token too short to be safe stops the start', () => {
    const env = { JWT_SECRET: 'test-secret-'.padEnd(48, 'x'), DATA_DIR: t.dataDir };
    expect(() => loadConfig({ ...env, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16/);
    expect(loadConfig({ ...env, METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
  });
});
