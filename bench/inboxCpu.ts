/**
 * CPU time per signed inbox activity (issue 32): the federation bench's `Like`s, sent through
 * `app.inject` (no sockets, no client in the measure) into the app of `bench/federation.ts`, then
 * waited for until the queue is empty. All are zoe's, so the first counts and the rest are
 * found already liked (as the federation bench sends them). A shared machine makes
 * throughput noisy; this process's CPU time (`process.cpuUsage`) is not.
 * `--http`: sent with `fetch` over loopback instead (the client's CPU counts too).
 * `--wrk`: sent by wrk from its own process, in order, each once, as `npm run bench -- --federation`
 *   does (for `--seconds`, default 4; `--count` must outlast them): CPU per answered activity.
 *   tsx bench/inboxCpu.ts [--count 2000] [--concurrency 20] [--http | --wrk] [--cpu-prof out.cpuprofile]
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { newId } from '../server/domain/ids';
import { createTestApp, signIn } from '../tests/server/helpers';
import { uploadImage } from '../tests/server/multipart';
import { freePort, startRemoteServer, until } from '../tests/server/remoteServer';
import { runWrk } from './wrk';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const COUNT = Number(arg('count', '2000'));
const CONCURRENCY = Number(arg('concurrency', '20'));
const PROFILE = arg('cpu-prof', '');
const HTTP = process.argv.includes('--http');
const WRK = process.argv.includes('--wrk');
const SECONDS = Number(arg('seconds', '4'));

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
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
try {
  const author = await signIn(t.app, { username: 'author' });
  const image = (await uploadImage(t.app, author, 'post')).secure_url;
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/posts/create',
    headers: author.headers,
    payload: { message: 'Like me', tags: ['bench'], image },
  });
  const postId = (created.json() as { _id: string })._id;
  const zoe = remote.actorUri('zoe');
  const likesOf = async () =>
    Number(
      (await t.db.kysely.selectFrom('posts').select('likes_count').where('id', '=', postId).executeTakeFirstOrThrow())
        .likes_count,
    );

  /** The signed request as `inject` takes it (signing is the sender's work: done beforehand). */
  const sign = async (n: number) => {
    const request = await remote.signedRequest('zoe', `${local}/inbox`, {
      id: `${remote.origin}/likes/${n}-${newId()}`,
      type: 'Like',
      actor: zoe,
      object: `${local}/post/${postId}`,
    });
    return { headers: Object.fromEntries(request.headers), payload: Buffer.from(await request.arrayBuffer()) };
  };
  const send = async (r: Awaited<ReturnType<typeof sign>>) => {
    if (HTTP) {
      const res = await fetch(`${local}/inbox`, { method: 'POST', headers: r.headers, body: r.payload });
      const body = await res.text();
      if (res.status !== 202) throw new Error(`the inbox answered ${res.status}: ${body}`);
      return;
    }
    const res = await t.app.inject({ method: 'POST', url: '/inbox', headers: r.headers, payload: r.payload });
    if (res.statusCode !== 202) throw new Error(`the inbox answered ${res.statusCode}: ${res.body}`);
  };
  const queueEmpty = async () => (await t.app.ctx.federation!.data.queuedTasks()) === 0;

  const signAll = (count: number, from: number) => Promise.all(Array.from({ length: count }, (_, n) => sign(from + n)));

  async function round(
    requests: Awaited<ReturnType<typeof sign>>[],
    seconds = SECONDS,
  ): Promise<{ request: number; total: number; wall: number; count: number; rps?: number }> {
    const started = process.cpuUsage();
    if (WRK) {
      const sequence = requests.map((r) => ({
        method: 'POST' as const,
        path: '/inbox',
        headers: { ...r.headers, Host: `127.0.0.1:${port}` },
        body: r.payload.toString('utf8'),
      }));
      const result = await runWrk(
        { paths: ['/inbox'], sequence },
        { baseUrl: local, connections: CONCURRENCY, threads: 1, seconds, scriptDir: tmpdir() },
        'inbox-cpu',
      );
      const total = cpuMs(process.cpuUsage(started));
      if (result.errors) throw new Error(`${result.errors} answers were not 202`);
      if ((result.sent ?? 0) > requests.length) console.warn(`ran out of signed activities: raise --count`);
      return { request: total, total, wall: seconds * 1000, count: result.requests, rps: result.rps };
    }
    const wallStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) await send(requests[next++]);
      }),
    );
    const request = cpuMs(process.cpuUsage(started));
    await until(queueEmpty);
    return {
      request,
      total: cpuMs(process.cpuUsage(started)),
      wall: performance.now() - wallStarted,
      count: requests.length,
    };
  }

  // The first one fetches zoe's key and person; a warm-up round compiles the rest.
  await send(await sign(-1));
  await until(async () => (await likesOf()) >= 1 && (await queueEmpty()));
  await round(await signAll(Math.min(500, COUNT), 0), 1);
  // Signed before the measure (and the profile): signing is the sender's work.
  const measured = await signAll(COUNT, 1_000_000);

  const session = new Session();
  if (PROFILE) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const { request, total, wall, count, rps } = await round(measured);
  if (PROFILE) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(PROFILE, JSON.stringify(profile));
    session.disconnect();
  }
  console.log(
    `${count} signed Likes${HTTP ? ' over HTTP' : WRK ? ' by wrk' : ''}, ${CONCURRENCY} at a time (${process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'SQLite'}): ` +
      `CPU ${(total / count).toFixed(2)} ms per activity (${(request / count).toFixed(2)} ms until answered, ` +
      `${((total - request) / count).toFixed(2)} ms after), wall ${(wall / count).toFixed(2)} ms per activity` +
      (rps === undefined ? '' : ` (${rps.toFixed(0)}/s)`),
  );
} finally {
  await t.close();
  await remote.close();
}
