/**
 * `npm run federation:demo` (issue 32, item 7): two Posts instances on this machine that federate
 * over loopback, each with its own data folder (SQLite, media on disk) under `data/federation-demo/`,
 * `PUBLIC_URL` of its own and `FEDERATION_ALLOW_PRIVATE=true` (loopback is refused otherwise), each
 * started as `npm start` starts one (scripts/start.sh). Each gets a demo person; the script prints
 * where to sign in and the handles to look up. Ctrl-C stops both. One instance answers at
 * 127.0.0.1, the other at localhost: a browser keeps their sign-in cookies apart by host name
 * (not by port). Ports: `FEDERATION_DEMO_PORTS=4101,4102` by default.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { exited, freePort, pipeOutput, waitForHealth } from './cluster/processes';

const root = path.resolve(import.meta.dirname, '..');
const PASSWORD = 'federation demo';

interface Instance {
  name: string;
  person: string;
  url: string;
  port: number;
  dataDir: string;
}

async function portOr(wanted: number): Promise<number> {
  const free = await new Promise<boolean>((resolve) => {
    import('node:net').then(({ createServer }) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(wanted, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  });
  return free ? wanted : freePort();
}

const [firstPort, secondPort] = (process.env.FEDERATION_DEMO_PORTS ?? '4101,4102').split(',').map(Number);
const instances: Instance[] = [];
for (const [name, person, host, wanted] of [
  ['a', 'alice', '127.0.0.1', firstPort],
  ['b', 'bob', 'localhost', secondPort],
] as const) {
  const port = await portOr(wanted);
  instances.push({
    name,
    person,
    port,
    url: `http://${host}:${port}`,
    dataDir: path.join(root, 'data', 'federation-demo', name),
  });
}

const children: ChildProcess[] = [];
let stopping = false;
async function stop(code: number): Promise<never> {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => exited(child, 15_000)));
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

function start(instance: Instance): ChildProcess {
  mkdirSync(instance.dataDir, { recursive: true });
  const child = spawn('sh', [path.join(root, 'scripts', 'start.sh')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(instance.port),
      DATA_DIR: instance.dataDir,
      DATABASE_URL: `sqlite:${path.join(instance.dataDir, 'posts.db')}`,
      PUBLIC_URL: instance.url,
      FEDERATION: 'true',
      FEDERATION_ALLOW_PRIVATE: 'true',
      INSTANCE_NAME: `Posts ${instance.name.toUpperCase()}`,
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pipeOutput(child, instance.name, { terminal: true });
  child.once('exit', (code) => {
    if (!stopping) {
      console.error(`Instance ${instance.name} stopped (${code ?? 'signal'}): stopping the other one.`);
      void stop(1);
    }
  });
  children.push(child);
  return child;
}

/** The demo person, made once (a second run finds them). */
async function ensurePerson(instance: Instance): Promise<void> {
  const res = await fetch(`${instance.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: instance.url },
    body: JSON.stringify({ username: instance.person, email: `${instance.person}@example.com`, password: PASSWORD }),
  });
  if (res.status !== 201 && res.status !== 409)
    throw new Error(`signing up ${instance.person}: ${res.status} ${await res.text()}`);
}

try {
  // One after the other: the first builds the pages when no build is there yet (as `npm start` does).
  for (const instance of instances) {
    const child = start(instance);
    await waitForHealth(instance.url, () => child.exitCode === null, 600_000);
    await ensurePerson(instance);
  }
} catch (error) {
  console.error(`npm run federation:demo: ${(error as Error).message}`);
  await stop(1);
}

const [a, b] = instances;
const handle = (i: Instance) => `@${i.person}@${new URL(i.url).host}`;
console.log(`
Two Posts instances federate on this machine (Ctrl-C stops both):

  A  ${a.url}   sign in as ${a.person}@example.com / ${PASSWORD}   data: ${path.relative(root, a.dataDir)}
  B  ${b.url}   sign in as ${b.person}@example.com / ${PASSWORD}   data: ${path.relative(root, b.dataDir)}

In people search on A, look up ${handle(b)} (or ${b.url}/profile/${b.person});
on B, look up ${handle(a)} (or ${a.url}/profile/${a.person}).
Follow, post on the other instance, and watch the post arrive in the home feed.
`);
