/**
 * The streaming API's transports: WebSocket `/api/v1/streaming` (the `ws` package, on the HTTP
 * server's `upgrade` event: Fastify routes no upgrades) and its Server-Sent Events form
 * (`/api/v1/streaming/user`, `/public/local`, `/hashtag?tag=`...), with `/api/v1/streaming/health`.
 * What each connection is sent is streaming.ts's; the caps are the notification streams' caps.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { TooManyAttemptsError } from '../domain/errors';
import { HttpError } from '../http/errors';
import { refuseOtherHosts } from '../http/origin';
import { openEventStream, writeComment, writeEvent } from '../http/eventStream';
import { TAG_MAX } from '../../lib/limits';
import { TEXTS } from '../../lib/texts';
import { tagError } from '../../lib/validation';
import type { BearerAuth, OAuthService } from '../oauth/service';
import { covers } from '../oauth/scopes';
import { STREAMS_PER_USER_MAX } from '../notifications/streams';
import { SCOPE_MISSING, TOKEN_INVALID, USER_REQUIRED, needs, withoutTrailingSlash } from './http';
import type { Site } from './mappers';
import {
  type ClientStreams,
  type Connection,
  type OpenRefusal,
  type StreamName,
  SUBSCRIPTIONS_PER_CONNECTION_MAX,
  type Subscription,
  isStreamName,
} from './streaming';
import { type ClientServices, siteOf, tokenUser } from './support';

export const STREAMING_PATH = '/api/v1/streaming';
/** Messages a client may send (subscribe, unsubscribe) are small. */
const MAX_MESSAGE_BYTES = 16 * 1024;

export interface StreamingOptions {
  services: ClientServices;
  oauth: OAuthService;
  streams: ClientStreams;
  heartbeatMs: number;
}

/** A stream's name and tag checked: a known name, and a tag for (only) the hashtag streams. */
export function subscriptionOf(name: unknown, tag: unknown): Subscription | string {
  if (!isStreamName(name)) return 'Unknown stream type';
  const tagged = name === 'hashtag' || name === 'hashtag:local';
  if (!tagged) return { name };
  if (typeof tag !== 'string' || tag.trim() === '') return 'No tag for stream provided';
  const bare = tag.trim().replace(/^#/, '');
  // A tag no post can carry would follow nothing; checked as posts' tags are, with the reason.
  const invalid = tagError(bare);
  return invalid
    ? `Invalid tag: ${invalid === TEXTS.tagRequired ? `at most ${TAG_MAX} characters` : invalid}`
    : { name, tag: bare };
}

const refusalText: Record<OpenRefusal, string> = {
  user: `At most ${STREAMS_PER_USER_MAX} streams may be open at once; close one first`,
  address: 'Too many streams are open from your address; close one first',
  process: 'This server holds as many streams as it can; try again in a minute',
};

/** The person and scopes of a streaming token, or why not (401, 403, 422), as the REST guard answers. */
function checkAuth(auth: BearerAuth | null): { status: number; error: string } | null {
  if (!auth) return { status: 401, error: TOKEN_INVALID };
  if (!covers(auth.scopes, 'read:statuses') && !covers(auth.scopes, 'read:notifications'))
    return { status: 403, error: SCOPE_MISSING };
  if (!auth.user) return { status: 422, error: USER_REQUIRED };
  return null;
}

/** The SSE form: `GET /api/v1/streaming/{user,user/notification,public,public/local,hashtag,hashtag/local}`. */
export const streamingEndpoints: FastifyPluginAsync<StreamingOptions> = async (app, options) => {
  const { services, streams, heartbeatMs } = options;

  app.get(`${STREAMING_PATH}/health`, async (_request, reply) => reply.type('text/plain; charset=utf-8').send('OK'));

  const paths: Record<string, StreamName> = {
    user: 'user',
    'user/notification': 'user:notification',
    public: 'public',
    'public/local': 'public:local',
    hashtag: 'hashtag',
    'hashtag/local': 'hashtag:local',
  };
  for (const [path, name] of Object.entries(paths))
    app.get<{ Querystring: { tag?: string } }>(
      `${STREAMING_PATH}/${path}`,
      { preValidation: needs(name.startsWith('user') ? 'read:notifications' : 'read:statuses') },
      async (request, reply) => {
        const viewer = tokenUser(request);
        const sub = subscriptionOf(name, request.query.tag);
        if (typeof sub === 'string') throw new HttpError(400, 'InvalidStream', sub);
        const refusal = streams.refusal(viewer.id, request.ip);
        if (refusal === 'process')
          throw new HttpError(503, 'StreamsFull', refusalText.process, { 'Retry-After': '60' });
        if (refusal) throw new TooManyAttemptsError(refusalText[refusal], 60, 'TooManyStreams');
        reply.header('Cache-Control', 'private, no-store');
        for (const [header, value] of Object.entries(reply.getHeaders()))
          if (value !== undefined) reply.raw.setHeader(header, value as string);
        reply.hijack();
        const res = reply.raw;
        openEventStream(request.raw, res, ')');
        const connection = streams.open(
          {
            viewer,
            scopes: request.bearer?.scopes ?? [],
            site: siteOf(services.config, request),
            address: request.ip,
            deliver: (_stream, event, payload) => writeEvent(res, event, payload),
            end: () => res.end(),
          },
          [sub],
        );
        if (!connection) {
          res.end();
          return;
        }
        const beat = setInterval(() => writeComment(res, 'thump'), heartbeatMs).unref();
        res.on('close', () => {
          clearInterval(beat);
          streams.close(connection);
        });
      },
    );
};

/** The token of an upgrade request: `access_token`, `Authorization: Bearer`, or the subprotocol. */
export function upgradeToken(req: IncomingMessage, url: URL): { token: string | null; viaProtocol: boolean } {
  const query = url.searchParams.get('access_token');
  if (query) return { token: query, viaProtocol: false };
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (bearer) return { token: bearer[1], viaProtocol: false };
  const protocol = req.headers['sec-websocket-protocol']?.split(',')[0]?.trim();
  return protocol ? { token: protocol, viaProtocol: true } : { token: null, viaProtocol: false };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** A refused upgrade: an HTTP answer with `{ error }`, then the socket closes. */
function refuseUpgrade(socket: Duplex, status: number, error: string, retryAfter = false): void {
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      (retryAfter ? 'Retry-After: 60\r\n' : '') +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/**
 * WebSocket `/api/v1/streaming?stream=...&tag=...`: the first stream from the query, more with
 * `{"type":"subscribe","stream":"hashtag","tag":"cats"}` (and `unsubscribe`). Every message out is
 * `{"stream":[...],"event":"update","payload":"<status JSON>"}`, as Mastodon sends them.
 */
export function registerStreamingSocket(app: FastifyInstance, options: StreamingOptions): void {
  const { services, oauth, streams, heartbeatMs } = options;
  const { config } = services;
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    // The token sent as the subprotocol is echoed back, as Mastodon does (browsers require one back).
    handleProtocols: (protocols) => protocols.values().next().value ?? false,
  });

  const siteOfUpgrade = (req: IncomingMessage): Site => {
    if (config.publicOrigin) return config.publicOrigin;
    const forwarded = config.trustProxy ? req.headers['x-forwarded-proto'] : undefined;
    const scheme = typeof forwarded === 'string' ? forwarded.split(',')[0].trim() : 'http';
    return `${scheme}://${req.headers.host ?? 'localhost'}`;
  };

  // Fastify's Host check does not see upgrades (DNS rebinding): the same rules here. The Origin is
  // not checked, as for the rest of the client API: only a token opens a stream, never a cookie.
  const checkHost = refuseOtherHosts({ publicOrigin: config.publicOrigin, listenHost: config.host });
  const hostOf = (req: IncomingMessage) => {
    const forwarded = config.trustProxy ? req.headers['x-forwarded-host'] : undefined;
    return typeof forwarded === 'string' ? forwarded.split(',')[0].trim() : req.headers.host;
  };

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    try {
      checkHost({ host: hostOf(req) ?? '' });
    } catch (error) {
      return refuseUpgrade(socket, 421, error instanceof Error ? error.message : 'Misdirected request');
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const { token } = upgradeToken(req, url);
    const auth = token ? await oauth.authenticate(token) : null;
    const failed = checkAuth(auth);
    if (failed) return refuseUpgrade(socket, failed.status, failed.error);
    const viewer = auth!.user!;
    const address = addressOf(req, config.trustProxy);
    const refusal = streams.refusal(viewer.id, address);
    if (refusal) return refuseUpgrade(socket, refusal === 'process' ? 503 : 429, refusalText[refusal], true);
    const first = url.searchParams.get('stream');
    const firstSub = first === null ? null : subscriptionOf(first, url.searchParams.get('tag'));
    if (typeof firstSub === 'string') return refuseUpgrade(socket, 400, firstSub);
    sockets.handleUpgrade(req, socket, head, (ws) => serve(ws, auth!, viewer, address, siteOfUpgrade(req), firstSub));
  }

  function serve(
    ws: WebSocket,
    auth: BearerAuth,
    viewer: NonNullable<BearerAuth['user']>,
    address: string,
    site: Site,
    first: Subscription | null,
  ): void {
    const connection: Connection | null = streams.open(
      {
        viewer,
        scopes: auth.scopes,
        site,
        address,
        deliver: (stream, event, payload) => {
          if (ws.readyState !== ws.OPEN) return;
          ws.send(JSON.stringify({ stream, event, payload }));
          if (ws.bufferedAmount > 1 << 20) ws.terminate();
        },
        // 1000 with a reason: the client knows it was ended, not dropped (and need not retry at once).
        end: () => ws.close(1000, 'The access token was revoked'),
      },
      first ? [first] : [],
    );
    if (!connection) {
      ws.close(1001, 'The server is closing');
      return;
    }
    const fail = (error: string) => ws.send(JSON.stringify({ error, status: 400 }));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return fail('Messages must be JSON text');
      let message: { type?: unknown; stream?: unknown; tag?: unknown };
      try {
        message = JSON.parse(data.toString()) as typeof message;
      } catch {
        return fail('Messages must be JSON');
      }
      if (message?.type !== 'subscribe' && message?.type !== 'unsubscribe')
        return fail('Unknown message type: use subscribe or unsubscribe');
      const sub = subscriptionOf(message.stream, message.tag);
      if (typeof sub === 'string') return fail(sub);
      if (message.type === 'unsubscribe') return streams.unsubscribe(connection, sub);
      if (!streams.subscribe(connection, sub))
        fail(`At most ${SUBSCRIPTIONS_PER_CONNECTION_MAX} streams per connection; unsubscribe from one first`);
    });
    // A peer that answers no ping within a heartbeat is gone: its slot is given back.
    let alive = true;
    ws.on('pong', () => (alive = true));
    const beat = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, heartbeatMs).unref();
    ws.on('close', () => {
      clearInterval(beat);
      streams.close(connection);
    });
    ws.on('error', () => ws.terminate());
  }

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = withoutTrailingSlash((req.url ?? '/').split('?')[0]);
    if (path !== STREAMING_PATH) {
      // Other paths are someone else's (Next.js's hot reload in development); with no one else, refused.
      if (app.server.listenerCount('upgrade') === 1) refuseUpgrade(socket, 404, `No WebSocket at ${path}`);
      return;
    }
    socket.on('error', () => socket.destroy());
    upgrade(req, socket, head).catch((error: unknown) => {
      app.log.error({ err: error }, 'A streaming upgrade failed');
      refuseUpgrade(socket, 503, 'The stream could not be opened; try again');
    });
  });
  app.addHook('preClose', async () => {
    streams.closeAll();
    sockets.close();
  });
}

/** The client's address as Fastify's `request.ip` reads it (the proxy's header only when trusted). */
function addressOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  if (typeof forwarded === 'string' && forwarded) return forwarded.split(',')[0].trim();
  return req.socket.remoteAddress ?? '';
}
