/**
 * `npm run test:cluster`: two instances on a fresh PostgreSQL database, Redis and S3, behind nginx,
 * as `npm run cluster` starts them (and a Prometheus scraping them), driven over real HTTP through
 * the balancer or one instance.
 * The caches' own times are a minute (the default, on the bus as alone), so what another instance
 * sees within a second came through the bus.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { type Cluster, startCluster } from '../../scripts/cluster/cluster';
import { freePort, logFile } from '../../scripts/cluster/processes';
import { alertRulesFile } from '../../scripts/cluster/prometheus';
import { makeJpeg } from '../server/multipart';
import { type Account, Client, signUp } from './client';

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// Its own Redis database: its counters and bus channels stay apart from the unit tests' (database 0).
const redisUrl = Object.assign(new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'), { pathname: '/13' });
const databaseName = `posts_cluster_${randomBytes(6).toString('hex')}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

let cluster: Cluster;
let dataDir: string;
let balancer: string;
let one: string;
let two: string;

beforeAll(async () => {
  await admin(`CREATE DATABASE ${databaseName}`);
  dataDir = mkdtempSync(path.join(tmpdir(), 'posts-cluster-test-'));
  const log = path.join(dataDir, 'cluster.log');
  console.log(`The cluster's output: ${log}`);
  cluster = await startCluster({
    size: 2,
    host: '127.0.0.1',
    port: await freePort(),
    output: logFile(log),
    say: () => {},
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl.toString(),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_AUTH_PER_IP: '10000',
      RATE_LIMIT_AUTH_PER_ACCOUNT: '3',
      RATE_LIMIT_UPLOADS_PER_USER: '10000',
      RATE_LIMIT_WRITES_PER_USER: '100000',
      MAX_EVENT_LOOP_DELAY_MS: '0',
    },
  });
  balancer = cluster.url;
  [one, two] = cluster.instances.map((instance) => instance.url);
}, 600_000);

afterAll(async () => {
  await cluster?.stop();
  // The instances' pools may still be closing their connections: wait for them.
  for (let attempt = 0; ; attempt += 1) {
    try {
      await admin(`DROP DATABASE IF EXISTS ${databaseName}`);
      break;
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

/** Checks `check` every `everyMs` until it passes; fails when it still does not after `withinMs`. */
async function within(withinMs: number, check: () => Promise<boolean>, everyMs = 20): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`not seen within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** An instant query through Prometheus's HTTP API: each series' value by its `instance` label. */
async function byInstance(promql: string): Promise<Map<string, number>> {
  const res = await fetch(`${cluster.prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const answer = (await res.json()) as {
    status: string;
    error?: string;
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  expect({ promql, status: answer.status, error: answer.error }).toEqual({
    promql,
    status: 'success',
    error: undefined,
  });
  return new Map(answer.data.result.map(({ metric, value }) => [metric.instance, Number(value[1])]));
}

const uploadForm = (bytes: Uint8Array) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  form.append('upload_preset', 'post');
  return form;
};

async function upload(account: Account, base: string, bytes?: Uint8Array): Promise<string> {
  const res = await account.client.request(base, 'POST', '/api/uploads', uploadForm(bytes ?? (await makeJpeg())));
  expect(res.status).toBe(201);
  return (res.body as { secure_url: string }).secure_url;
}

/** A camera-sized JPEG of noise, which does not compress away: about 2 MB, as a phone's photo. */
const realPhoto = () =>
  sharp({
    create: {
      width: 2000,
      height: 1500,
      channels: 3,
      background: '#5a8cc8',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();

async function createPost(account: Account, base: string, image?: string): Promise<{ _id: string }> {
  const res = await account.client.request(base, 'POST', '/api/posts/create', {
    message: 'Across instances',
    tags: ['cluster'],
    image: image ?? (await upload(account, base)),
  });
  expect(res.status).toBe(201);
  return res.body as { _id: string };
}

const homeFeedIds = async (account: Account, base: string) => {
  const res = await account.client.request(base, 'GET', '/api/posts?feed=following');
  expect(res.status).toBe(200);
  return (res.body as { _id: string }[]).map((post) => post._id);
};

const copyOf = (client: Client) => {
  const copy = new Client();
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
};

it('answers through the balancer from both instances in turn, with no stickiness', async () => {
  const client = new Client();
  const answered: string[] = [];
  for (let i = 0; i < 6; i += 1) {
    const res = await client.request(balancer, 'GET', '/api/instance/health');
    expect(res.status).toBe(200);
    answered.push((res.body as { instance: string }).instance);
  }
  expect(new Set(answered)).toEqual(new Set(['instance-1', 'instance-2']));
  expect((await client.request(one, 'GET', '/api/instance/health')).body).toMatchObject({ instance: 'instance-1' });
});

it("gives each request nginx's id, which the instance keeps as its X-Request-Id; a client's own id is replaced", async () => {
  const ids = new Set<string>();
  for (let i = 0; i < 4; i += 1) {
    const res = await fetch(`${balancer}/api/instance/health`, { headers: { 'x-request-id': 'chosen-by-the-client' } });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^[0-9a-f]{32}$/); // nginx's $request_id; the app's own would be a UUID
    ids.add(id);
  }
  expect(ids.size).toBe(4);
});

it("is scraped by a real Prometheus: both instances up, and each one's request counter rises with traffic through the balancer", async () => {
  const ids = cluster.instances.map((instance) => instance.id);
  // Two scrapes of each instance that answered, with samples: every second, so well within the deadline.
  let seen = '';
  await within(
    120_000,
    async () => {
      const answered = await byInstance('sum_over_time(up{job="posts"}[10m])');
      const up = await byInstance('up{job="posts"}');
      const samples = await byInstance('scrape_samples_scraped{job="posts"}');
      seen = JSON.stringify({ answered: [...answered], up: [...up], samples: [...samples] });
      return ids.every((id) => answered.get(id)! >= 2 && up.get(id) === 1 && samples.get(id)! > 0);
    },
    250,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${seen}`);
  });

  const requests = 'sum by (instance) (posts_http_requests_total{job="posts"})';
  const before = await byInstance(requests);
  const client = new Client();
  for (let i = 0; i < 20; i += 1)
    expect((await client.request(balancer, 'GET', '/api/instance/health')).status).toBe(200);
  await within(
    60_000,
    async () => {
      const after = await byInstance(requests);
      seen = JSON.stringify({ before: [...before], after: [...after] });
      return ids.every((id) => after.get(id)! > (before.get(id) ?? 0));
    },
    250,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${seen}`);
  });

  // The shipped alerting rules (deploy/prometheus/alerts.yml) are loaded and evaluate without an
  // error against the real series, and every metric they name is one both instances export.
  const rules = (await (await fetch(`${cluster.prometheusUrl}/api/v1/rules`)).json()) as {
    data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] };
  };
  const loaded = rules.data.groups.flatMap((group) => group.rules);
  expect(loaded.map((rule) => rule.name)).toContain('PostsInstanceDown');
  await within(
    30_000,
    async () => {
      const now = (await (await fetch(`${cluster.prometheusUrl}/api/v1/rules`)).json()) as typeof rules;
      const states = now.data.groups.flatMap((group) => group.rules);
      seen = JSON.stringify(states.map(({ name, health, lastError }) => ({ name, health, lastError })));
      return states.every((rule) => rule.health === 'ok');
    },
    250,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${seen}`);
  });
  const named = new Set(readFileSync(alertRulesFile, 'utf8').match(/\bposts_\w+/g));
  expect(named.size).toBeGreaterThan(3);
  for (const metric of named) {
    const exported = await byInstance(`count by (instance) (${metric}{job="posts"})`);
    expect({ metric, instances: [...exported.keys()].sort() }).toEqual({ metric, instances: ids });
  }
  // Off the public site: the balancer does not pass /metrics on.
  expect((await fetch(`${balancer}/metrics`)).status).toBe(404);
});

it('takes a session made through one instance on the other', async () => {
  const account = await signUp(one);
  const onTwo = await account.client.request(two, 'GET', '/api/auth/getLoggedUser');
  expect(onTwo.status).toBe(200);
  expect(onTwo.body).toMatchObject({ _id: account.id, username: account.username });
  for (let i = 0; i < 4; i += 1)
    expect((await account.client.request(balancer, 'GET', '/api/auth/getLoggedUser')).status).toBe(200);
});

it('serves an upload made through one instance to the other', async () => {
  const account = await signUp(balancer);
  const image = await upload(account, one);
  const post = await createPost(account, two, image);
  const read = await account.client.request(two, 'GET', `/api/posts/${post._id}`);
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ image });
  // The bucket is read through the balancer, with the headers the local-disk /media sends.
  expect(image.startsWith(`${balancer}/media/`)).toBe(true);
  const served = await fetch(image);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toMatch(/^image\//);
  expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);
  // Reads only: the bucket is neither listed nor written through the balancer.
  expect((await fetch(`${balancer}/media/`)).status).toBeGreaterThanOrEqual(400);
  expect((await fetch(image, { method: 'PUT', body: 'replaced' })).status).toBe(403);
});

it("takes a real-size photo through the balancer, and refuses a file past 4 MiB with the app's JSON", async () => {
  const account = await signUp(balancer);
  const photo = await realPhoto();
  expect(photo.byteLength).toBeGreaterThan(1024 * 1024);
  const image = await upload(account, balancer, photo);
  expect((await fetch(image)).status).toBe(200);

  const tooBig = { message: 'File is too big', code: 'PayloadTooLarge' };
  // Refused by the app (4 MiB and more), and by nginx before the app (past its 5 MiB): the same answer.
  for (const size of [4 * 1024 * 1024 + 1, 6 * 1024 * 1024]) {
    const res = await account.client.request(balancer, 'POST', '/api/uploads', uploadForm(new Uint8Array(size)));
    expect({ size, status: res.status, body: res.body }).toEqual({ size, status: 413, body: tooBig });
  }
  // A JSON body past nginx's in-memory buffer reaches the app, which answers it (here: over its 64 KiB).
  const long = await account.client.request(balancer, 'POST', '/api/posts/create', { message: 'x'.repeat(100_000) });
  expect(long).toEqual({ status: 413, body: { message: 'Request body is too large', code: 'PayloadTooLarge' } });
});

it('ends on the other instance within a second a session logged out through one', async () => {
  const account = await signUp(one);
  const stolen = copyOf(account.client);
  expect((await stolen.request(two, 'GET', '/api/auth/getLoggedUser')).status).toBe(200); // two has it cached
  expect((await account.client.request(one, 'POST', '/api/auth/logout')).status).toBe(200);
  await within(1_000, async () => (await stolen.request(two, 'GET', '/api/auth/getLoggedUser')).status === 401);
});

it('shows on the other instance within a second a rename made through one', async () => {
  const account = await signUp(one);
  expect((await account.client.request(two, 'GET', '/api/auth/getLoggedUser')).status).toBe(200);
  const renamed = `${account.username}_r`;
  const change = await account.client.request(one, 'PATCH', '/api/users/updateAccount', {
    email: account.email,
    password: account.password,
    username: renamed,
  });
  expect(change.status).toBe(200);
  await within(1_000, async () => {
    const me = await account.client.request(two, 'GET', '/api/auth/getLoggedUser');
    const profile = await account.client.request(two, 'GET', `/api/users/${renamed}`);
    return (me.body as { username: string }).username === renamed && profile.status === 200;
  });
});

it("changes the reader's home feed on the other instance within a second after an unfollow through one", async () => {
  const [fan, star] = [await signUp(one), await signUp(one)];
  const post = await createPost(star, one);
  expect((await fan.client.request(one, 'PATCH', `/api/users/${star.username}/follow`)).status).toBe(200);
  await within(1_000, async () => (await homeFeedIds(fan, two)).includes(post._id)); // now kept by two
  expect((await fan.client.request(one, 'PATCH', `/api/users/${star.username}/unfollow`)).status).toBe(200);
  await within(1_000, async () => !(await homeFeedIds(fan, two)).includes(post._id));
});

it("shows a person's own like, comment, post, follow and setting in their next read on the other instance", async () => {
  // Straight to the instances, in turn: the write through one, the next read through the other, at
  // once (no waiting here). The person's client carries the write's bus position (the seen_writes
  // cookie), which the other instance waits to have heard before it reads (instance/readYourWrites.ts).
  const [me, star] = [await signUp(one), await signUp(one)];
  const starsPost = await createPost(star, one);
  const instances = [one, two];
  for (let turn = 0; turn < 2; turn += 1) {
    const [writeOn, readOn] = [instances[turn], instances[1 - turn]];
    const read = async (path: string) => {
      const res = await me.client.request(readOn, 'GET', path);
      expect(res.status).toBe(200);
      return res.body;
    };
    // Kept by the reading instance first (a row is kept from its second read).
    for (let i = 0; i < 2; i += 1) await read(`/api/posts/${starsPost._id}`);
    await read(`/api/posts/${starsPost._id}/comments`);
    await read(`/api/users/${me.username}/posts`);
    await read(`/api/users/${me.username}`);
    await read('/api/posts?feed=following');

    const reaction = turn === 0 ? 'like' : 'dislike';
    expect((await me.client.request(writeOn, 'PATCH', `/api/posts/${starsPost._id}/${reaction}`)).status).toBe(200);
    expect(await read(`/api/posts/${starsPost._id}`)).toMatchObject({ myReaction: reaction });

    const comment = await me.client.request(writeOn, 'POST', `/api/posts/${starsPost._id}/comments`, {
      message: `comment ${turn}`,
    });
    expect(comment.status).toBe(201);
    const comments = (await read(`/api/posts/${starsPost._id}/comments`)) as { commentId: string }[];
    expect(comments.map((c) => c.commentId)).toContain((comment.body as { commentId: string }).commentId);

    const mine = await createPost(me, writeOn);
    expect(((await read(`/api/users/${me.username}/posts`)) as { _id: string }[])[0]._id).toBe(mine._id);

    const follow = turn === 0 ? 'follow' : 'unfollow';
    expect((await me.client.request(writeOn, 'PATCH', `/api/users/${star.username}/${follow}`)).status).toBe(200);
    const following = ((await read('/api/posts?feed=following')) as { _id: string }[]).map((post) => post._id);
    expect(following.includes(starsPost._id)).toBe(follow === 'follow');

    const description = `set through ${writeOn}`;
    const setting = await me.client.request(writeOn, 'PATCH', '/api/users/updateProfile', {
      email: me.email,
      avatar: null,
      banner: null,
      description,
    });
    expect(setting.status).toBe(200);
    expect(await read(`/api/users/${me.username}`)).toMatchObject({ user: { description } });
  }
});

it('counts wrong sign-in passwords on both instances together', async () => {
  const account = await signUp(one);
  const guesser = new Client();
  const guess = (base: string, password = 'wrong guess') =>
    guesser.request(base, 'POST', '/api/auth/login', { email: account.email, password });
  // RATE_LIMIT_AUTH_PER_ACCOUNT is 3 here: three wrong guesses, whichever instance took them.
  expect((await guess(one)).status).toBe(401);
  expect((await guess(two)).status).toBe(401);
  expect((await guess(one)).status).toBe(401);
  expect((await guess(two)).status).toBe(429);
  expect((await guess(one, account.password)).status).toBe(429);
});

it('loses no acknowledged write when an instance is killed under load, and the balancer keeps answering', async () => {
  const writer = await signUp(balancer);
  const post = await createPost(writer, balancer);
  const acknowledged: { id: string; at: number }[] = [];
  const refused: string[] = [];
  const healthAnswers: number[] = [];
  let killedAt = Infinity;
  const endAt = Date.now() + 4_500;

  // Four writers adding comments through the balancer: an answer 201 means the comment was stored.
  const write = async (n: number) => {
    for (let i = 0; Date.now() < endAt; i += 1) {
      try {
        const res = await writer.client.request(balancer, 'POST', `/api/posts/${post._id}/comments`, {
          message: `writer ${n}, comment ${i}`,
        });
        if (res.status === 201)
          acknowledged.push({ id: (res.body as { commentId: string }).commentId, at: Date.now() });
        else refused.push(String(res.status));
      } catch (error) {
        refused.push((error as Error).message);
      }
    }
  };
  const watch = async () => {
    while (Date.now() < endAt) {
      const res = await fetch(`${balancer}/api/instance/health`).catch(() => null);
      healthAnswers.push(res?.status ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const kill = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    killedAt = Date.now();
    cluster.instances[1].process.kill('SIGKILL');
  };
  await Promise.all([write(1), write(2), write(3), write(4), watch(), kill()]);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const stored = await client.query<{ id: string }>('SELECT id FROM comments WHERE post_id = $1', [post._id]);
  await client.end();
  const storedIds = new Set(stored.rows.map((row) => row.id));
  const lost = acknowledged.filter((write) => !storedIds.has(write.id));
  console.log(
    `Writes: ${acknowledged.length} acknowledged (${acknowledged.filter((w) => w.at > killedAt).length} after the kill), ` +
      `${refused.length} refused (${[...new Set(refused)].join(', ') || 'none'}); ${healthAnswers.length} health checks`,
  );
  expect(lost).toEqual([]);
  // The balancer answered every write: a refusal is an HTTP status (502 for one cut off), never a dropped connection.
  expect(refused.filter((answer) => !/^[3-5]\d\d$/.test(answer))).toEqual([]);
  expect(acknowledged.filter((write) => write.at > killedAt + 500).length).toBeGreaterThan(0);
  expect(healthAnswers.filter((status) => status !== 200)).toEqual([]);
  expect(cluster.instances[1].process.signalCode).toBe('SIGKILL');
});
