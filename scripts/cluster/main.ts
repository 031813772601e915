/**
 * `npm run cluster`: CLUSTER_SIZE instances (default 2) of Posts on PostgreSQL (DATABASE_URL),
 * Redis (REDIS_URL) and S3 (the S3 variables, or a local RADOS Gateway) behind nginx on PORT
 * (default 3000), scraped by Prometheus on a free port. Prints the URLs once the balancer answers;
 * Ctrl-C stops everything.
 */
import { clusterSettingsError, startCluster } from './cluster';

function whole(name: string, fallback: number, least: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < least) {
    console.error(`${name} must be a whole number of at least ${least}, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

const problem = clusterSettingsError(process.env);
if (problem) {
  console.error(`npm run cluster: ${problem}`);
  process.exit(2);
}
const size = whole('CLUSTER_SIZE', 2, 1);
const port = whole('PORT', 3000, 1);
const host = process.env.HOST ?? '127.0.0.1';

let stopping = false;
const starting = startCluster({ size, host, port, env: process.env, output: { terminal: true } });

// Installed before the cluster is up: Ctrl-C while it starts must still stop what has started
// (startCluster stops it when a step fails, an instance killed by the same Ctrl-C included).
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping the balancer, the instances and what the cluster started`);
  const cluster = await starting.catch(() => null);
  await cluster?.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

const cluster = await starting.catch((error: Error) => {
  if (stopping) return new Promise<never>(() => {}); // stop() exits once the cleanup is done
  console.error(`npm run cluster: ${error.message}`);
  process.exit(1);
});
if (!stopping) {
  for (const instance of cluster.instances)
    instance.process.once('exit', (code, signal) => {
      if (!stopping)
        console.log(`${instance.id} stopped (${signal ?? `code ${code}`}); the balancer sends its share to the others`);
    });
  console.log(
    `Posts is running at ${cluster.url} (${size} instances: ${cluster.instances.map((i) => i.id).join(', ')})`,
  );
  console.log(`Prometheus scrapes them every second: ${cluster.prometheusUrl}`);
}
