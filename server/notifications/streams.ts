/**
 * The open notification streams of this process (Server-Sent Events), by user. A notification
 * written anywhere is announced on the bus by id; the instance holding that user's streams reads
 * it once and writes it to each. One timer writes every stream's heartbeat.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppNotification } from '../../lib/types';
import { isUuid } from '../domain/ids';
import type { Bus } from '../instance/bus';
import type { Notified } from './notify';

/** The bus channel of notification nudges: `{ userId, notificationId }`. */
export const NOTIFICATIONS_CHANNEL = 'notifications';

/** Open streams one user may hold in a process: a tab each is plenty; more is a leak or abuse. */
export const STREAMS_PER_USER_MAX = 32;

/** A client that reads nothing while this much waits for it is dropped, not buffered without end. */
const MAX_PENDING_BYTES = 1 << 20;

export interface NotificationStreamsDeps {
  bus: Pick<Bus, 'publish' | 'subscribe'>;
  find(userId: string, id: string): Promise<AppNotification | null>;
  missed(userId: string, afterId: string): Promise<AppNotification[]>;
  heartbeatMs: number;
  log: { warn(obj: unknown, message?: string): void };
}

interface Stream {
  res: ServerResponse;
  /** Ids sent as missed ones after a reconnect: one also announced meanwhile is sent once. */
  replayed: Set<string> | null;
  /** While the missed ones are being read, what arrives waits here. */
  waiting: AppNotification[] | null;
}

export function notificationStreams({ bus, find, missed, heartbeatMs, log }: NotificationStreamsDeps) {
  const byUser = new Map<string, Set<Stream>>();
  let count = 0;
  let heartbeat: NodeJS.Timeout | null = null;
  // Fastify's preClose ends the streams first; the context's close (later) finds nothing to do.
  let closed = false;

  function write(stream: Stream, notification: AppNotification): void {
    if (stream.replayed?.has(notification.id) || stream.res.destroyed) return;
    stream.res.write(`event: notification\nid: ${notification.id}\ndata: ${JSON.stringify(notification)}\n\n`);
    if (stream.res.writableLength > MAX_PENDING_BYTES) stream.res.destroy();
  }

  async function deliver(userId: string, notificationId: string): Promise<void> {
    if (!byUser.has(userId)) return;
    const notification = await find(userId, notificationId);
    if (!notification) return;
    for (const stream of byUser.get(userId) ?? []) {
      if (stream.waiting) stream.waiting.push(notification);
      else write(stream, notification);
    }
  }

  const unsubscribe = bus.subscribe(NOTIFICATIONS_CHANNEL, (message) => {
    const { userId, notificationId } = (message ?? {}) as Partial<Notified>;
    if (typeof userId !== 'string' || !isUuid(notificationId)) return;
    deliver(userId, notificationId).catch((error: unknown) =>
      log.warn({ err: error }, 'Reading a notification for its streams failed'),
    );
  });

  function beat(): void {
    for (const streams of byUser.values())
      for (const stream of streams) if (!stream.res.destroyed) stream.res.write(': keep-alive\n\n');
  }

  function remove(userId: string, stream: Stream): void {
    const streams = byUser.get(userId);
    if (!streams?.delete(stream)) return;
    count -= 1;
    if (streams.size === 0) byUser.delete(userId);
    if (count === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  }

  return {
    /** Tells every instance's streams about notifications just committed. */
    announce(notified: readonly Notified[]): void {
      for (const { userId, notificationId } of notified) bus.publish(NOTIFICATIONS_CHANNEL, { userId, notificationId });
    },

    /**
     * Takes over the response: headers, then what was missed after `lastEventId` (a reconnect),
     * then every new notification until either side closes it.
     */
    async open(userId: string, req: IncomingMessage, res: ServerResponse, lastEventId: string | null): Promise<void> {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        Connection: 'keep-alive',
        // Proxies such as nginx would otherwise hold the events back in their buffers.
        'X-Accel-Buffering': 'no',
      });
      req.socket.setNoDelay(true);
      res.write(': connected\n\n');
      if (closed) {
        res.end(); // opened while the server closes: the client reconnects to another instance
        return;
      }
      const stream: Stream = { res, replayed: null, waiting: lastEventId ? [] : null };
      let streams = byUser.get(userId);
      if (!streams) byUser.set(userId, (streams = new Set()));
      streams.add(stream);
      count += 1;
      heartbeat ??= setInterval(beat, heartbeatMs).unref();
      res.on('close', () => remove(userId, stream));
      if (!lastEventId) return;
      try {
        const replay = await missed(userId, lastEventId);
        for (const notification of replay) write(stream, notification);
        stream.replayed = new Set(replay.map((notification) => notification.id));
      } finally {
        const waiting = stream.waiting ?? [];
        stream.waiting = null;
        for (const notification of waiting) write(stream, notification);
      }
    },

    /** Whether the user may open one more stream here. */
    hasRoomFor(userId: string): boolean {
      return (byUser.get(userId)?.size ?? 0) < STREAMS_PER_USER_MAX;
    },

    /** Open streams in this process. */
    get size(): number {
      return count;
    },

    /** Ends every stream (the server is closing) and stops listening. */
    close(): void {
      if (closed) return;
      closed = true;
      unsubscribe();
      for (const streams of byUser.values()) for (const stream of streams) stream.res.end();
    },
  };
}

export type NotificationStreams = ReturnType<typeof notificationStreams>;
