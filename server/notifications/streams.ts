/**
 * The open notification streams of this process (Server-Sent Events), by user. Every event carries
 * the notifications its write changed (`NotificationChange`): for a user with streams here, a
 * written one is read once by id and sent to each stream; when unread ones went (a like taken
 * back, a deleted post, a block, a read), the unread count is read and sent as an `unread` event.
 * One user's changes are read and written in the order they came, so a count read after a removal
 * never goes out before a notification read before it. One timer writes every stream's heartbeat.
 * A stream lives no longer than its session: a sign-out, "sign out everywhere else", a password
 * change or reset, a suspension or an account's deletion ends it here and on every instance.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppNotification } from '../../lib/types';
import type { DomainEvents } from '../events/domainEvents';
import type { DomainEvent, NotificationChange } from '../events/events';
import type { StreamSlots } from './streamSlots';
import { openEventStream, writeComment, writeEvent } from '../http/eventStream';

/** Open streams one user may hold in a process: a tab each is plenty; more is a leak or abuse. */
export const STREAMS_PER_USER_MAX = 32;

export interface NotificationStreamsDeps {
  events: Pick<DomainEvents, 'subscribe'>;
  find(userId: string, id: string): Promise<AppNotification | null>;
  missed(userId: string, afterId: string): Promise<AppNotification[]>;
  /** The user's unread count, as `GET /api/notifications/unread` answers it. */
  unread(userId: string): Promise<number>;
  heartbeatMs: number;
  /** The process's and each address's caps, shared with the client API's streams. */
  slots: StreamSlots;
  log: { warn(obj: unknown, message?: string): void };
}

/** What a stream is sent: a new notification, or the unread count after some were removed. */
type StreamEvent = { notification: AppNotification } | { unread: number };

interface Stream {
  res: ServerResponse;
  /** The session that opened it: its revocation ends the stream. */
  sessionId: string;
  address: string;
  /** Ids sent as missed ones after a reconnect: one also published meanwhile is sent once. */
  replayed: Set<string> | null;
  /** While the missed ones are being read, what arrives waits here. */
  waiting: StreamEvent[] | null;
}

/** Why one more stream is refused: the user's, the address's or the process's cap is reached. */
export type StreamRefusal = 'user' | 'address' | 'process';

export function notificationStreams({
  events,
  find,
  missed,
  unread,
  heartbeatMs,
  slots,
  log,
}: NotificationStreamsDeps) {
  const byUser = new Map<string, Set<Stream>>();
  /** Per user, the end of the changes being read: the next one waits for it. */
  const turns = new Map<string, Promise<void>>();
  let count = 0;
  let heartbeat: NodeJS.Timeout | null = null;
  // Fastify's preClose ends the streams first; the context's close (later) finds nothing to do.
  let closed = false;

  function write(stream: Stream, event: StreamEvent): void {
    if ('notification' in event) {
      const { notification } = event;
      if (stream.replayed?.has(notification.id)) return;
      writeEvent(stream.res, 'notification', JSON.stringify(notification), notification.id);
    } else {
      // No `id:` line: the client's Last-Event-ID stays the last notification's, for the replay.
      writeEvent(stream.res, 'unread', JSON.stringify({ count: event.unread }));
    }
  }

  function send(userId: string, event: StreamEvent): void {
    for (const stream of byUser.get(userId) ?? []) {
      if (stream.waiting) stream.waiting.push(event);
      else write(stream, event);
    }
  }

  async function deliver(change: NotificationChange): Promise<void> {
    if (!byUser.has(change.userId)) return;
    if ('unreadFell' in change) {
      send(change.userId, { unread: await unread(change.userId) });
      return;
    }
    const notification = await find(change.userId, change.notificationId);
    if (notification) send(change.userId, { notification });
  }

  /** Reads and writes the user's changes one after the other, in the order they came. */
  function inTurn(change: NotificationChange): void {
    const { userId } = change;
    const turn = (turns.get(userId) ?? Promise.resolve())
      .then(() => deliver(change))
      .catch((error: unknown) => log.warn({ err: error }, 'Reading a notification for its streams failed'));
    turns.set(userId, turn);
    void turn.then(() => {
      if (turns.get(userId) === turn) turns.delete(userId);
    });
  }

  /** The streams of the user that the event's revocation ends (none when it revokes nothing). */
  function revokedBy(event: Extract<DomainEvent, { userId: string }>): Stream[] {
    const streams = [...(byUser.get(event.userId) ?? [])];
    switch (event.type) {
      case 'SessionRevoked':
        return streams.filter((stream) => stream.sessionId === event.sessionId);
      case 'SessionsRevoked':
        return streams.filter((stream) => stream.sessionId !== event.keptSessionId);
      case 'UserSuspended':
      case 'AccountDeleted':
        return streams;
      default:
        return [];
    }
  }

  const unsubscribe = events.subscribe((event) => {
    if ('userId' in event) for (const stream of revokedBy(event)) end(event.userId, stream);
    // Only a user with streams here costs a read.
    for (const change of event.notifications ?? []) if (byUser.has(change.userId)) inTurn(change);
  });

  function beat(): void {
    for (const streams of byUser.values()) for (const stream of streams) writeComment(stream.res, 'keep-alive');
  }

  function remove(userId: string, stream: Stream): void {
    const streams = byUser.get(userId);
    if (!streams?.delete(stream)) return;
    count -= 1;
    slots.give(stream.address);
    if (streams.size === 0) byUser.delete(userId);
    if (count === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  }

  /** Ends one stream now: it hears nothing more, not even a notification already being read. */
  function end(userId: string, stream: Stream): void {
    remove(userId, stream);
    stream.res.end();
  }

  return {
    /**
     * Takes over the response: headers, then what was missed after `lastEventId` (a reconnect),
     * then every new notification (and the unread count after removals) until either side closes it.
     */
    async open(
      { userId, sessionId, address }: { userId: string; sessionId: string; address: string },
      req: IncomingMessage,
      res: ServerResponse,
      lastEventId: string | null,
    ): Promise<void> {
      openEventStream(req, res, 'connected');
      if (closed) {
        res.end(); // opened while the server closes: the client reconnects to another instance
        return;
      }
      const stream: Stream = { res, sessionId, address, replayed: null, waiting: lastEventId ? [] : null };
      let streams = byUser.get(userId);
      if (!streams) byUser.set(userId, (streams = new Set()));
      streams.add(stream);
      count += 1;
      slots.take(address);
      heartbeat ??= setInterval(beat, heartbeatMs).unref();
      res.on('close', () => remove(userId, stream));
      if (!lastEventId) return;
      try {
        const replay = await missed(userId, lastEventId);
        for (const notification of replay) write(stream, { notification });
        stream.replayed = new Set(replay.map((notification) => notification.id));
      } finally {
        const waiting = stream.waiting ?? [];
        stream.waiting = null;
        for (const event of waiting) write(stream, event);
      }
    },

    /** Why the user, from that address, may not open one more stream here; null when they may. */
    refusal(userId: string, address: string): StreamRefusal | null {
      if ((byUser.get(userId)?.size ?? 0) >= STREAMS_PER_USER_MAX) return 'user';
      return slots.refusal(address);
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
