import type { FastifyPluginAsync } from 'fastify';
import { type Guards, currentUser } from '../auth/guard';
import { TooManyAttemptsError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import { HttpError } from '../http/errors';
import { type PageQuery, pageQuerySchema, readPage, sendPage } from '../http/paging';
import { errors, listOf, notificationSchema } from '../http/schemas';
import type { NotificationsService } from './service';
import { type NotificationStreams, STREAMS_PER_USER_MAX, type StreamRefusal } from './streams';

/** Over a cap, the client waits a minute: a stream is long-lived, so room comes back slowly. */
const refused: Record<StreamRefusal, () => Error> = {
  user: () =>
    new TooManyAttemptsError(
      `At most ${STREAMS_PER_USER_MAX} notification streams may be open at once; close one first`,
      60,
      'TooManyStreams',
    ),
  address: () =>
    new TooManyAttemptsError(
      'Too many notification streams are open from your address; close one first',
      60,
      'TooManyStreamsFromAddress',
    ),
  // 503, not 429: the client did nothing wrong; this instance is full (another may have room).
  process: () =>
    new HttpError(
      503,
      'StreamsFull',
      'This server holds as many notification streams as it can; try again in a minute',
      {
        'Retry-After': '60',
      },
    ),
};

const countResponse = { type: 'object', properties: { count: { type: 'integer' } } } as const;

export interface NotificationsRoutesOptions {
  notifications: NotificationsService;
  streams: NotificationStreams;
  guards: Guards;
}

export const notificationsRoutes: FastifyPluginAsync<NotificationsRoutesOptions> = async (
  app,
  { notifications, streams, guards },
) => {
  const { signedIn, write } = guards;

  app.get<{ Querystring: PageQuery }>(
    '/',
    {
      preValidation: signedIn,
      schema: {
        tags: ['notifications'],
        querystring: { type: 'object', properties: pageQuerySchema },
        response: { 200: listOf(notificationSchema), ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      const rows = await notifications.list(currentUser(request), page);
      return sendPage(request, reply, page, rows, (n) => n.id);
    },
  );

  app.get(
    '/unread',
    { preValidation: signedIn, schema: { tags: ['notifications'], response: { 200: countResponse, ...errors(401) } } },
    async (request) => notifications.unread(currentUser(request)),
  );

  app.post<{ Body: { upTo?: string } | undefined }>(
    '/read',
    {
      preValidation: write,
      schema: {
        tags: ['notifications'],
        body: { type: ['object', 'null'], properties: { upTo: { type: 'string', maxLength: 64 } } },
        response: { 200: countResponse, ...errors(400, 401, 429) },
      },
    },
    async (request) => notifications.markRead(currentUser(request), request.body?.upTo),
  );

  app.get(
    '/stream',
    {
      preValidation: signedIn,
      schema: {
        tags: ['notifications'],
        description:
          'Server-Sent Events: `event: notification`, `id:` its id, `data:` the notification; ' +
          '`event: unread`, `data: {"count":N}` when unread ones were removed or marked read.',
        response: { ...errors(401, 429, 503) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const refusal = streams.refusal(user.id, request.ip);
      if (refusal) throw refused[refusal]();
      const lastEventId = request.headers['last-event-id'];
      // The headers set by the hooks (security, Cache-Control) would be lost with the reply.
      reply.header('Cache-Control', 'private, no-store');
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string);
      }
      reply.hijack();
      await streams.open(
        { userId: user.id, sessionId: user.sessionId, address: request.ip },
        request.raw,
        reply.raw,
        isUuid(lastEventId) ? lastEventId : null,
      );
    },
  );
};
