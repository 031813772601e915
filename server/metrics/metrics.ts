/**
 * This process's Prometheus metrics (`GET /metrics`, docs/API.md). A request costs one histogram
 * observation and one addition (`observeRequest`); everything else (caches, queues, streams, sign-ins)
 * is kept as plain numbers where it happens and read by the gauges' and counters' `collect` when
 * Prometheus scrapes. Prometheus adds the `instance` label itself.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CountedCache } from '../cache/counts';
import type { StatementTiming } from '../db/database';
import type { Activity } from './activity';

export interface MetricsSources {
  /** Every in-memory cache, by the name the `cache` label gives it. */
  /** Every cache, by name (`cache/registry.ts`). */
  caches: ReadonlyMap<string, CountedCache>;
  /** Times every cache started over because the bus may have missed a message, by reason (`instance/busSequence.ts`). */
  busMissed: { counts(): ReadonlyMap<string, number> };
  activity: Activity;
  /** Open notification streams. */
  streams: { readonly size: number };
  /** Mails (and their lookups) queued or running. */
  outbox: { depth(): number };
  /** The upload image jobs (`media/pipeline.ts`). */
  imageJobs: { depth(): { running: number; queued: number } };
  /** ActivityPub deliveries (`federation/`); null when federation is off (the figures stay 0). */
  federation: {
    queuedTasks(): Promise<number>;
    readonly failures: { deliveries: number; dropped: number; refused: number };
  } | null;
  /** Set when the database was opened `timed`. */
  timing: StatementTiming | null;
}

export interface Metrics {
  /** One answered request: `route` the pattern (`/api/posts/:id`) or `unmatched`. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  /** The text Prometheus reads, and its content type. */
  text(): Promise<string>;
  readonly contentType: string;
}

/** `/api/posts/:id` and not `/api/posts/42`: one series per route, whatever the paths asked. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Database statements by their first word: few labels, whatever the SQL. */
const STATEMENT_KINDS = ['select', 'insert', 'update', 'delete'] as const;
type StatementKind = (typeof STATEMENT_KINDS)[number] | 'other';

function statementKind(sql: string): StatementKind {
  const word = sql.trimStart().slice(0, 6).toLowerCase();
  return (STATEMENT_KINDS as readonly string[]).includes(word) ? (word as StatementKind) : 'other';
}

/** Statements and pool waits take milliseconds, not the seconds a request may. */
const DATABASE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface RequestSeries {
  labels: { method: string; route: string; status_code: string };
  count: number;
}

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  // Event-loop delay (p50/p90/p99, min, max, mean), heap, RSS, handles, GC, CPU: prom-client's own.
  collectDefaultMetrics({ register: registry, prefix: 'posts_' });

  const durations = new Histogram({
    name: 'posts_http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
  });
  // The counter is the histogram's count under its own name: one addition per request, copied when scraped.
  const series = new Map<string, RequestSeries>();
  new Counter({
    name: 'posts_http_requests_total',
    help: 'Requests answered, by route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, count } of series.values()) this.inc(labels, count);
    },
  });

  const caches = sources.caches;
  const cacheCounter = (name: string, help: string, field: 'hits' | 'misses' | 'evictions') =>
    new Counter({
      name,
      help,
      labelNames: ['cache'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [cache, { counts }] of caches) this.inc({ cache }, counts[field]);
      },
    });
  cacheCounter('posts_cache_hits_total', 'Reads an in-memory cache answered.', 'hits');
  cacheCounter('posts_cache_misses_total', 'Reads an in-memory cache passed to the database.', 'misses');
  cacheCounter('posts_cache_evictions_total', 'Entries pushed out of a full cache to make room.', 'evictions');
  new Gauge({
    name: 'posts_cache_size',
    help: 'Entries an in-memory cache holds.',
    labelNames: ['cache'],
    registers: [registry],
    collect() {
      for (const [cache, counted] of caches) this.set({ cache }, counted.size());
    },
  });

  new Counter({
    name: 'posts_bus_missed_total',
    help:
      "Times every cache started over because a bus message may have been missed: a gap in a publisher's numbers, " +
      'a publisher first heard mid-way (joined), one silent past the bound, Redis back after a cut (rejoined), ' +
      "a reader's own write not heard within the bound (behind), or, per request, this instance not hearing the bus (deaf).",
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, count] of sources.busMissed.counts()) this.inc({ reason }, count);
    },
  });

  const { activity } = sources;
  new Gauge({
    name: 'posts_sse_streams',
    help: 'Notification streams (Server-Sent Events) open on this instance.',
    registers: [registry],
    collect() {
      this.set(sources.streams.size);
    },
  });
  new Gauge({
    name: 'posts_mail_outbox_pending',
    help: 'Mails (with the lookups before them) queued or being sent.',
    registers: [registry],
    collect() {
      this.set(sources.outbox.depth());
    },
  });
  new Gauge({
    name: 'posts_image_jobs',
    help: 'Upload image jobs running and queued on this instance.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'running' }, sources.imageJobs.depth().running);
      this.set({ state: 'queued' }, sources.imageJobs.depth().queued);
    },
  });
  // Registered with federation off too (0): the alert rules name them on every instance.
  new Gauge({
    name: 'posts_federation_queue_depth',
    help: 'ActivityPub deliveries and inbox tasks waiting or running, on every instance (one table).',
    registers: [registry],
    async collect() {
      this.set((await sources.federation?.queuedTasks()) ?? 0);
    },
  });
  new Counter({
    name: 'posts_federation_failures_total',
    help: 'ActivityPub delivery attempts that failed (each is tried again for about two days), queued tasks dropped, and deliveries refused (a suspended domain, a private address).',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ kind: 'delivery' }, sources.federation?.failures.deliveries ?? 0);
      this.inc({ kind: 'dropped' }, sources.federation?.failures.dropped ?? 0);
      this.inc({ kind: 'refused' }, sources.federation?.failures.refused ?? 0);
    },
  });
  new Counter({
    name: 'posts_rate_limit_refusals_total',
    help: 'Requests refused (429) by a rate limit, by its name.',
    labelNames: ['limit'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [limit, count] of activity.refusals) this.inc({ limit }, count);
    },
  });
  new Counter({
    name: 'posts_sign_ins_total',
    help: 'Sign-in attempts, by result.',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [result, count] of Object.entries(activity.signIns)) this.inc({ result }, count);
    },
  });
  new Counter({
    name: 'posts_sign_ups_total',
    help: 'Accounts created.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(activity.signUps);
    },
  });

  if (sources.timing) {
    const statements = new Histogram({
      name: 'posts_db_statement_duration_seconds',
      help: 'Time a database statement took, by its kind (select, insert, update, delete, other).',
      labelNames: ['kind'],
      buckets: DATABASE_BUCKETS,
      registers: [registry],
    });
    const byKind = Object.fromEntries(
      [...STATEMENT_KINDS, 'other'].map((kind) => [kind, statements.labels({ kind })]),
    ) as Record<StatementKind, Histogram.Internal<'kind'>>;
    sources.timing.statement = (sql, seconds) => byKind[statementKind(sql)].observe(seconds);
    const poolWaits = new Histogram({
      name: 'posts_db_pool_wait_seconds',
      help: 'PostgreSQL: time a query waited for a connection from the pool (opening one included).',
      buckets: DATABASE_BUCKETS,
      registers: [registry],
    });
    sources.timing.poolWait = (seconds) => poolWaits.observe(seconds);
  }

  return {
    observeRequest(method, route, statusCode, seconds) {
      const key = `${method} ${statusCode} ${route}`;
      let entry = series.get(key);
      if (!entry) {
        entry = { labels: { method, route, status_code: String(statusCode) }, count: 0 };
        series.set(key, entry);
      }
      entry.count++;
      durations.observe(entry.labels, seconds);
    },
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
