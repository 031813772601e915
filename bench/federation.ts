/**
 * Federation rows of `npm run bench -- --federation` (issue 32, "Tests and figures"), on a
 * temporary SQLite database (PostgreSQL with TEST_DB=postgres and TEST_DATABASE_URL), the app in
 * this process listening on loopback (`FEDERATION_ALLOW_PRIVATE=true`):
 * (a) a post by someone with 10,000 followers on 100 other servers (100 local sink servers, each
 *     a shared inbox answering 202): the API's answer time next to the same post by someone with
 *     10 followers (the deliveries are queued after the commit, so it must not grow), and the
 *     deliveries per second reaching the sinks;
 * (b) signed activities per second into the inbox (a `Like` each, with its own id, signed beforehand
 *     with a real RSA key by an actor on a loopback server; sent by wrk, 20 connections): goal ≥ 500/s
 *     on SQLite.
 * Figures on a shared machine are noisy: the log (docs/benchmarks/log/README.md) says where each was taken.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { newId } from '../server/domain/ids';
import { type SignedInUser, type TestApp, createTestApp, signIn } from '../tests/server/helpers';
import { uploadImage } from '../tests/server/multipart';
import { freePort, startRemoteServer, until } from '../tests/server/remoteServer';
import { type SequenceEntry, runWrk } from './wrk';
import { median } from './median';

const SERVERS = 100;
const MANY = 10_000;
const FEW = 10;
const POSTS = 10;
/** Signed beforehand: more than the inbox takes in INBOX_SECONDS (each is sent once). */
const INBOX_ACTIVITIES = 8_000;
const INBOX_SECONDS = 4;
const INBOX_CONCURRENCY = 20;

interface Sink {
  server: Server;
  origin: string;
}

let delivered = 0;
async function startSink(): Promise<Sink> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') delivered++;
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** `count` followers of `user` on the sinks (round robin), as inbox Follows would have kept them. */
async function seedFollowers(t: TestApp, user: SignedInUser, sinks: Sink[], count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => {
    const sink = sinks[i % sinks.length].origin;
    const actor = `${sink}/actors/${user.username}-${i}`;
    return {
      id: newId(),
      user_id: user.id,
      actor_uri: actor,
      inbox_uri: `${actor}/inbox`,
      shared_inbox_uri: `${sink}/inbox`,
      follow_id: `${actor}#follow`,
      created_at: new Date().toISOString(),
    };
  });
  for (let i = 0; i < rows.length; i += 500)
    await t.db.kysely
      .insertInto('federation_followers')
      .values(rows.slice(i, i + 500))
      .execute();
}

/**
 * The API's answer time of `POSTS` new posts by `user`, each alone: its image uploaded beforehand
 * and the deliveries of the one before finished (`deliveries` per post), neither timed.
 */
async function postTimes(t: TestApp, user: SignedInUser, deliveries: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < POSTS; i++) {
    const image = (await uploadImage(t.app, user, 'post')).secure_url;
    const before = delivered;
    const started = performance.now();
    await createPost(t, user, image, `Post ${i}`);
    times.push(performance.now() - started);
    await until(() => delivered - before >= deliveries);
    await until(() => queueEmpty(t));
  }
  return times;
}

async function createPost(t: TestApp, user: SignedInUser, image: string, message: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/posts/create',
    headers: user.headers,
    payload: { message, tags: ['bench'], image },
  });
  if (res.statusCode !== 201) throw new Error(`create post failed: ${res.body}`);
  return (res.json() as { _id: string })._id;
}

async function queueEmpty(t: TestApp): Promise<boolean> {
  return (await t.app.ctx.federation!.data.queuedTasks()) === 0;
}

export async function runFederationBench(say: (line: string) => void = console.log): Promise<void> {
  const sinks = await Promise.all(Array.from({ length: SERVERS }, startSink));
  const remote = await startRemoteServer(['zoe']);
  const port = await freePort();
  const local = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    PUBLIC_URL: local,
    FEDERATION_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_WRITES_PER_USER: '100000',
    RATE_LIMIT_UPLOADS_PER_USER: '100000',
  });
  await t.app.listen({ host: '127.0.0.1', port });
  try {
    say(`Federation (${process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'SQLite'}, app and sinks in one process):`);
    const few = await signIn(t.app, { username: 'fewfans' });
    const many = await signIn(t.app, { username: 'manyfans' });
    await seedFollowers(t, few, sinks, FEW);
    await seedFollowers(t, many, sinks, MANY);

    // Warm-up: a round of each first, so neither row pays for first compilations.
    await postTimes(t, few, FEW);
    await postTimes(t, many, SERVERS);
    const fewTimes = await postTimes(t, few, FEW);
    const manyTimes = await postTimes(t, many, SERVERS);
    say(
      `  new post, API answer (median of ${POSTS}): ${FEW} followers elsewhere ${median(fewTimes).toFixed(1)} ms, ` +
        `${MANY.toLocaleString('en')} on ${SERVERS} servers ${median(manyTimes).toFixed(1)} ms`,
    );

    // Deliveries: posts one after the other, until every sink has each (one per server: its shared inbox).
    const images = [];
    for (let i = 0; i < POSTS; i++) images.push((await uploadImage(t.app, many, 'post')).secure_url);
    const before = delivered;
    const expected = POSTS * SERVERS;
    const started = performance.now();
    for (const [i, image] of images.entries()) await createPost(t, many, image, `Burst ${i}`);
    await until(() => delivered - before >= expected);
    const seconds = (performance.now() - started) / 1000;
    say(
      `  deliveries reaching the sinks: ${expected} (${POSTS} posts × ${SERVERS} shared inboxes) in ${seconds.toFixed(1)} s: ` +
        `${(expected / seconds).toFixed(0)}/s`,
    );

    // (b) Signed Likes of a post, each its own id, signed beforehand (signing is the sender's work).
    const postId = await createPost(t, few, (await uploadImage(t.app, few, 'post')).secure_url, 'Like me');
    const zoe = remote.actorUri('zoe');
    const sign = (n: number) =>
      remote.signedRequest('zoe', `${local}/inbox`, {
        id: `${remote.origin}/likes/${n}-${newId()}`,
        type: 'Like',
        actor: zoe,
        object: `${local}/post/${postId}`,
      });
    // The first one fetches zoe's key; the rest find it cached, as from any server that talks often.
    const first = await fetch(await sign(-1));
    if (first.status !== 202) throw new Error(`the inbox answered ${first.status}: ${await first.text()}`);
    // Sent by wrk from its own process (a C program), in order, each once: a Node client in this
    // process would take the event loop's time from the server it measures.
    const sequence: SequenceEntry[] = await Promise.all(
      Array.from({ length: INBOX_ACTIVITIES }, async (_, n) => {
        const request = await sign(n);
        const url = new URL(request.url);
        return {
          method: 'POST' as const,
          path: url.pathname,
          headers: { ...Object.fromEntries(request.headers), Host: url.host },
          body: await request.text(),
        };
      }),
    );
    const cpuBefore = process.cpuUsage();
    const result = await runWrk(
      { paths: ['/inbox'], sequence },
      { baseUrl: local, connections: INBOX_CONCURRENCY, threads: 1, seconds: INBOX_SECONDS, scriptDir: tmpdir() },
      'federation-inbox',
    );
    const cpu = process.cpuUsage(cpuBefore);
    const sent = result.sent ?? result.requests;
    say(
      `  signed inbox activities: ${result.rps.toFixed(0)}/s over ${INBOX_SECONDS} s (${INBOX_CONCURRENCY} connections, wrk), ` +
        `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
        `server CPU ${((cpu.user + cpu.system) / result.requests / 1000).toFixed(2)} ms an activity ` +
        `(goal ≥ 500/s on SQLite)` +
        (result.errors ? `, ${result.errors} not 202` : '') +
        (sent > sequence.length
          ? `; ran out of signed activities (${sent} sent of ${sequence.length}): more are needed`
          : ''),
    );
  } finally {
    await t.close();
    await remote.close();
    await Promise.all(sinks.map((s) => new Promise((resolve) => s.server.close(resolve))));
  }
}
