/**
 * `/metrics` wired, only when someone may read them (`METRICS_PORT`, `METRICS_TOKEN`): the request
 * counts, the listener on its own port, and the public route behind its token (`app.ts`).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { CacheRegistry } from '../cache/registry';
import { type Config, metricsEnabled } from '../config';
import { imageJobs } from '../media/pipeline';
import type { Activity } from './activity';
import { type MetricsSources, createMetrics } from './metrics';
import { type MetricsListener, countRequests, listenForMetrics, publicMetricsRoute } from './routes';

export interface MetricsDeps {
  config: Config;
  ctx: {
    caches: Pick<CacheRegistry, 'caches'>;
    busMissed: MetricsSources['busMissed'];
    activity: Activity;
    notificationStreams: MetricsSources['streams'];
    outbox: MetricsSources['outbox'];
    federation: {
      data: { queuedTasks(): Promise<number> };
      failures: { deliveries: number; dropped: number; refused: number };
    } | null;
  };
  /** Statements are timed when the database was opened `timed`, as main.ts opens it then. */
  timing: MetricsSources['timing'];
}

export function registerMetrics(app: FastifyInstance, { config, ctx, timing }: MetricsDeps) {
  const { federation } = ctx;
  const metrics = metricsEnabled(config)
    ? createMetrics({
        caches: ctx.caches.caches,
        busMissed: ctx.busMissed,
        activity: ctx.activity,
        streams: ctx.notificationStreams,
        outbox: ctx.outbox,
        imageJobs,
        federation: federation && { queuedTasks: () => federation.data.queuedTasks(), failures: federation.failures },
        timing,
      })
    : null;
  if (metrics) countRequests(app, metrics);
  let listener: MetricsListener | null = null;
  app.decorate('metricsAddress', (): AddressInfo | null => listener?.address() ?? null);
  if (metrics && config.metricsPort !== null) {
    const { metricsHost, metricsPort } = config;
    app.addHook('onReady', async () => {
      listener = await listenForMetrics(metrics, metricsHost, metricsPort);
    });
    app.addHook('onClose', async () => listener?.close());
  }
  return {
    /** `/metrics` on the app's own port, behind `METRICS_TOKEN`: registered after every other route. */
    publicRoute: () => publicMetricsRoute(app, metrics, config.metricsToken),
  };
}
