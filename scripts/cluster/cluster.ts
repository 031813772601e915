/**
 * A cluster of Posts on one machine: N instances on one PostgreSQL, one Redis and one S3 bucket,
 * behind a round-robin load balancer (the deployment's nginx site), scraped by a Prometheus.
 * `npm run cluster` (main.ts) and `npm run test:cluster` start it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/config';
import { isPostgresUrl, openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { vapidKeys } from '../../server/push/vapid';
import { buildPages } from '../../server/pages/buildPages';
import { ensureNginx, startBalancer } from './balancer';
import { type Output, exited, freePort, pipeOutput, waitForHealth } from './processes';
import { ensurePrometheus, startPrometheus, waitForPrometheus } from './prometheus';
import { s3Media } from './s3';

const root = path.resolve(import.meta.dirname, '../..');

export interface ClusterOptions {
  size: number;
  /** The balancer's address. */
  host: string;
  port: number;
  /** DATABASE_URL, REDIS_URL, the S3 variables and any other setting, as `npm start` reads them. */
  env: NodeJS.ProcessEnv;
  output: Output;
  say?: (line: string) => void;
}

export interface Instance {
  /** Its `INSTANCE_ID`, which its health check answers. */
  id: string;
  /** Its own address, past the balancer (for tests that pick the instance). */
  url: string;
  /** Its metrics listener's `host:port` (METRICS_PORT on loopback), which Prometheus scrapes. */
  metricsAddress: string;
  process: ChildProcess;
}

export interface Cluster {
  /** The balancer's address. */
  url: string;
  instances: Instance[];
  /** The Prometheus scraping every instance every second (its HTTP API: `/api/v1/query`). */
  prometheusUrl: string;
  stop(): Promise<void>;
}

/** Checks the settings a cluster cannot run without; the message says what to set. */
export function clusterSettingsError(env: NodeJS.ProcessEnv): string | null {
  if (!env.DATABASE_URL || !isPostgresUrl(env.DATABASE_URL))
    return 'DATABASE_URL must name a PostgreSQL database (postgres://user@host:5432/db): every instance shares it';
  if (!env.REDIS_URL) return 'REDIS_URL must name a Redis server (redis://127.0.0.1:6379): the instances share it';
  return null;
}

/** The balancer's address as this machine reaches it (listening on every interface: loopback). */
function balancerUrl({ host, port }: Pick<ClusterOptions, 'host' | 'port'>): string {
  const name = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** Where browsers reach the site: `PUBLIC_URL`'s origin, else the balancer's address. */
function siteOrigin(options: Pick<ClusterOptions, 'host' | 'port' | 'env'>): string {
  return options.env.PUBLIC_URL ? new URL(options.env.PUBLIC_URL).origin : balancerUrl(options);
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const say = options.say ?? ((line: string) => console.log(line));
  const problem = clusterSettingsError(options.env);
  if (problem) throw new Error(problem);
  const nginx = ensureNginx(say);
  const prometheusBinary = ensurePrometheus(say);
  const dir = mkdtempSync(path.join(tmpdir(), 'posts-cluster-'));
  // Made 0700: nginx's workers (nobody, when started as root) could not reach the request bodies
  // they buffer to disk inside it (every upload past 16 KiB answered 500). Searchable, not listable.
  chmodSync(dir, 0o711);
  const cleanups: (() => Promise<void> | void)[] = [() => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };

  try {
    const media = s3Media(options.env, say);
    cleanups.push(() => media.stop());
    // The local gateway's bucket is served through the balancer, at the site's own `/media/`, so its
    // files carry the same headers as local-disk media (a bucket the S3 variables name is left as set).
    const gatewayBucket = media.env.MEDIA_BASE_URL;
    const mediaEnv = gatewayBucket ? { ...media.env, MEDIA_BASE_URL: `${siteOrigin(options)}/media` } : media.env;
    // One secret for every instance: a token signed by one must pass on the others. Reading the
    // configuration here also refuses bad settings once, before any instance starts.
    const config = loadConfig({ ...options.env, ...mediaEnv });
    const jwtSecret = config.jwtSecret;
    // One VAPID pair too: a browser subscribed through one instance is pushed to by any (issue 74).
    const vapid = config.webPush && vapidKeys(config.webPush, config.dataDir);
    const env: NodeJS.ProcessEnv = {
      ...options.env,
      ...mediaEnv,
      JWT_SECRET: jwtSecret,
      ...(vapid && { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey }),
      NODE: process.execPath,
      NODE_ENV: 'production',
      TRUST_PROXY: 'true',
    };

    // Once, before the instances: one shared build, one migration.
    if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) {
      say('No production build found: building the pages (once)...');
      if (!buildPages()) throw new Error('next build failed');
    }
    const db = openDatabase(env.DATABASE_URL!);
    try {
      await migrateToLatest(db.kysely);
    } finally {
      await db.close();
    }

    const instances: Instance[] = [];
    for (let n = 1; n <= options.size; n += 1) {
      const port = await freePort();
      const metricsPort = await freePort();
      const id = `instance-${n}`;
      // As `npm start` runs it; `exec` there makes this child the server itself (signals reach it).
      const child = spawn('sh', ['scripts/start.sh'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...env,
          HOST: '127.0.0.1',
          PORT: String(port),
          METRICS_HOST: '127.0.0.1',
          METRICS_PORT: String(metricsPort),
          INSTANCE_ID: id,
        },
      });
      pipeOutput(child, id, options.output);
      instances.push({
        id,
        url: `http://127.0.0.1:${port}`,
        metricsAddress: `127.0.0.1:${metricsPort}`,
        process: child,
      });
      cleanups.push(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited(child, 15_000);
      });
    }
    await Promise.all(
      instances.map((instance) =>
        waitForHealth(instance.url, () => instance.process.exitCode === null && instance.process.signalCode === null),
      ),
    );

    const balancer = startBalancer(
      {
        host: options.host,
        port: options.port,
        upstreams: instances.map((instance) => new URL(instance.url).host),
        dir: path.join(dir, 'nginx'),
        mediaUpstream: gatewayBucket,
        output: options.output,
      },
      nginx,
    );
    cleanups.push(() => balancer.stop());
    const url = balancerUrl(options);
    await waitForHealth(url, () => balancer.process.exitCode === null, 30_000);

    const prometheus = startPrometheus(
      {
        port: await freePort(),
        targets: instances.map((instance) => ({ instance: instance.id, address: instance.metricsAddress })),
        dir: path.join(dir, 'prometheus'),
        output: options.output,
      },
      prometheusBinary,
    );
    cleanups.push(() => prometheus.stop());
    await waitForPrometheus(prometheus);
    return { url, instances, prometheusUrl: prometheus.url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
