/**
 * Where `/metrics` is read: its own small listener (`METRICS_PORT`, on `METRICS_HOST`, loopback by
 * default), or the public port with `Authorization: Bearer $METRICS_TOKEN`. Anyone else gets the
 * public port's plain 404, as for a path that does not exist.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Metrics, UNMATCHED_ROUTE } from './metrics';

/** The catch-all that answers 404 for unknown API paths is no route of its own. */
const CATCH_ALL_ROUTES = new Set(['/api/*']);

/** Counts every answer by its route's pattern: one hook, one observation. */
export function countRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const pattern = request.routeOptions.url;
    const route = pattern === undefined || CATCH_ALL_ROUTES.has(pattern) ? UNMATCHED_ROUTE : pattern;
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `Authorization: Bearer <token>` compared in constant time (the digests have one length whatever was sent). */
function bearerCheck(token: string | null): (authorization: string | undefined) => boolean {
  if (!token) return () => false;
  const expected = digest(`Bearer ${token}`);
  return (authorization) => authorization !== undefined && timingSafeEqual(digest(authorization), expected);
}

/** `GET /metrics` on the public port: for the token's holder only, a 404 like any unknown path for the rest. */
export function publicMetricsRoute(app: FastifyInstance, metrics: Metrics | null, token: string | null): void {
  const authorized = bearerCheck(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!metrics || !authorized(request.headers.authorization)) return reply.callNotFound();
    return reply
      .type(metrics.contentType)
      .header('Cache-Control', 'no-store')
      .send(await metrics.text());
  });
}

/** The listener of `METRICS_PORT`: `GET /metrics` and nothing else, no hooks, no pages. */
export interface MetricsListener {
  address(): AddressInfo;
  close(): Promise<void>;
}

export async function listenForMetrics(metrics: Metrics, host: string, port: number): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(req.method === 'HEAD' ? '' : text),
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${String(error)}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    address: () => server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
