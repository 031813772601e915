/**
 * Server CPU per request of the client API's timelines against the same lists on `/api/posts`
 * (issue 33), measured in-process on a copy of D1: the app built as `npm start` builds it (no
 * Next.js), listening on a port, the same viewer as `npm run bench` (with its blocks and mutes: run
 * the bench once on the copy first). Each class in turns, `process.cpuUsage()` around it.
 *   --inject: requests through `app.inject` (no socket: the request path and the answer's making)
 *   default:  wrk in its own process (-t1 -c<connections>), the socket writes counted too
 *   DATA_DIR=<copy of D1> tsx bench/timelines-cpu.ts [--rounds 4] [--seconds 3] [--count 2000]
 *     [--connections 16] [--inject] [--profile]
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PAGE_LIMIT_DEFAULT } from '../lib/limits';
import { clientApiToken } from './clientApiToken';
import { startProfile } from './cpuProfile';
import { flag, inProcessApp, signedInCookie } from './inProcessApp';

const ROUNDS = Number(flag('rounds', '4'));
const SECONDS = Number(flag('seconds', '3'));
const COUNT = Number(flag('count', '2000'));
const CONNECTIONS = Number(flag('connections', '16'));
const INJECT = process.argv.includes('--inject');
const PROFILE = process.argv.includes('--profile');

const { config, db, storage, app } = await inProcessApp();
const viewer = await db.kysely.selectFrom('users').select(['email']).orderBy('id').limit(1).executeTakeFirstOrThrow();
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const cookie = await signedInCookie(app, viewer.email);

const bearer = `Bearer ${await clientApiToken(base, cookie)}`;

const classes: { name: string; url: string; headers: Record<string, string> }[] = [
  { name: '/api/posts?feed=following', url: '/api/posts?feed=following', headers: { cookie } },
  {
    name: 'client API home',
    url: `/api/v1/timelines/home?limit=${PAGE_LIMIT_DEFAULT}`,
    headers: { authorization: bearer },
  },
  { name: '/api/posts?feed=all', url: '/api/posts?feed=all', headers: { cookie } },
  {
    name: 'client API public local',
    url: `/api/v1/timelines/public?local=true&limit=${PAGE_LIMIT_DEFAULT}`,
    headers: { authorization: bearer },
  },
];
for (const c of classes) {
  const res = await fetch(base + c.url, { headers: c.headers });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${c.name}: ${res.status}`);
  console.log(`${c.name}: ${body.byteLength} bytes`);
  if (process.argv.includes('--dump')) {
    console.log([...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n'));
    console.log(Buffer.from(body).toString('utf8'));
  }
}

/** wrk's requests in a run (its "N requests in" line). */
function wrk(url: string, headers: Record<string, string>, seconds: number): Promise<number> {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(base + url);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', () => {
      const n = /(\d+) requests in/.exec(out);
      if (!n || /Non-2xx/.test(out)) reject(new Error(out));
      else resolve(Number(n[1]));
    });
  });
}

async function injectRun(url: string, headers: Record<string, string>, count: number): Promise<number> {
  for (let i = 0; i < count; i++) {
    const res = await app.inject({ url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  }
  return count;
}

const run = (c: (typeof classes)[number], warm = false) =>
  INJECT ? injectRun(c.url, c.headers, warm ? 300 : COUNT) : wrk(c.url, c.headers, warm ? 1 : SECONDS);

for (const c of classes) await run(c, true);
const totals = new Map<string, { us: number; n: number; sys: number }>();
for (let round = 0; round < ROUNDS; round++) {
  const line: string[] = [];
  for (const c of classes) {
    const stopProfile = PROFILE ? await startProfile() : null;
    const cpu = process.cpuUsage();
    const n = await run(c);
    const used = process.cpuUsage(cpu);
    await stopProfile?.(path.join(config.dataDir, `timelines-${c.name.replace(/[^a-z]+/gi, '-')}-${round}.cpuprofile`));
    const us = used.user + used.system;
    const t = totals.get(c.name) ?? { us: 0, n: 0, sys: 0 };
    totals.set(c.name, { us: t.us + us, n: t.n + n, sys: t.sys + used.system });
    line.push(`${c.name} ${(us / n).toFixed(0)} µs (sys ${(used.system / n).toFixed(0)}, ${n})`);
  }
  console.log(`round ${round + 1}: ${line.join(' · ')}`);
}
const per = (name: string) => totals.get(name)!.us / totals.get(name)!.n;
const sys = (name: string) => totals.get(name)!.sys / totals.get(name)!.n;
for (const [a, b] of [
  ['client API home', '/api/posts?feed=following'],
  ['client API public local', '/api/posts?feed=all'],
])
  console.log(
    `${a}: ${per(a).toFixed(0)} µs (sys ${sys(a).toFixed(0)}) against ${per(b).toFixed(0)} µs (sys ${sys(b).toFixed(0)}): ` +
      `ratio ${(per(b) / per(a)).toFixed(2)}`,
  );

await app.close();
storage.close?.();

process.exit(0);
