/**
 * A real Prometheus scraping the cluster's instances: Debian's `prometheus`, in the foreground,
 * with a generated scrape config, its storage in the run's temporary folder, and the shipped
 * alerting rules (deploy/prometheus/alerts.yml) loaded, so every rule is evaluated against them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Output, exited, pipeOutput } from './processes';
import { ensureProgram } from './programs';

export const alertRulesFile = path.resolve(import.meta.dirname, '../../deploy/prometheus/alerts.yml');

/** Prometheus's path (its package brings promtool too). */
export const ensurePrometheus = (say: (line: string) => void): string =>
  ensureProgram('prometheus', ['prometheus'], say);
export const ensurePromtool = (say: (line: string) => void): string => ensureProgram('promtool', ['prometheus'], say);

export interface ScrapeTarget {
  /** The `instance` label: the instance's INSTANCE_ID. */
  instance: string;
  /** Its metrics listener's `host:port`. */
  address: string;
}

export interface PrometheusOptions {
  port: number;
  targets: ScrapeTarget[];
  /** Its folder: the config and the storage. */
  dir: string;
  output: Output;
}

/**
 * The scrape config, as JSON (which YAML reads as it is): job `posts`, like
 * deploy/prometheus/prometheus.yml, scraped every second so a test sees two scrapes quickly.
 */
export function scrapeConfig(targets: ScrapeTarget[]): string {
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    rule_files: [alertRulesFile],
    scrape_configs: [
      {
        job_name: 'posts',
        static_configs: targets.map(({ instance, address }) => ({ targets: [address], labels: { instance } })),
      },
    ],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export interface Prometheus {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export function startPrometheus({ port, targets, dir, output }: PrometheusOptions, prometheus: string): Prometheus {
  mkdirSync(dir, { recursive: true });
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(config, scrapeConfig(targets));
  const child = spawn(
    prometheus,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  pipeOutput(child, 'prometheus', output);
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited(child, 10_000);
    },
  };
}

/** Waits until Prometheus says it is ready (`/-/ready`); fails when it exits, or after `timeoutMs`. */
export async function waitForPrometheus(prometheus: Prometheus, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const ready = await fetch(`${prometheus.url}/-/ready`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
    if (ready?.ok) return;
    if (prometheus.process.exitCode !== null || prometheus.process.signalCode !== null)
      throw new Error('Prometheus exited before it was ready (its output is in the cluster log)');
    if (Date.now() - started > timeoutMs) throw new Error(`Prometheus was not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
