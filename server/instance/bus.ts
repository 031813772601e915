/**
 * Messages between this app's instances. Alone, a message reaches this process's subscribers;
 * with Redis (`REDIS_URL`), it also reaches every other instance through Redis pub/sub.
 *
 * A message is delivered here synchronously when published, so an instance never waits on
 * Redis to see its own change; the copy Redis echoes back is recognised by its sender id and
 * dropped. Messages are JSON: ids and small facts, never whole rows.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export type BusHandler = (message: unknown) => void;

export interface Bus {
  /** Delivers `message` to every subscriber of `channel`, here and on the other instances. */
  publish(channel: string, message: unknown): void;
  /** Returns the function that unsubscribes. */
  subscribe(channel: string, handler: BusHandler): () => void;
  /** Resolves once the subscriptions made so far also hear the other instances. */
  ready(): Promise<void>;
  /**
   * Calls `handler` each time the bus hears the other instances again after it was cut off from
   * them (Redis away): it may have missed their messages meanwhile.
   */
  onRejoined(handler: () => void): void;
  close(): Promise<void>;
}

export interface BusLog {
  warn(obj: unknown, message?: string): void;
}

/**
 * Channel names in Redis carry this prefix and the database number, so the app shares a Redis
 * server politely: pub/sub ignores database numbers, and two deployments (or a test run beside
 * another) on `redis://host/1` and `redis://host/2` must not hear each other.
 */
const PREFIX = 'posts:bus:';

/** Messages kept while Redis is away; past it, the oldest go (the caches' own expiry covers them). */
const MAX_UNSENT = 10_000;

interface Envelope {
  from: string;
  message: unknown;
}

function localSubscribers(log: BusLog) {
  const handlers = new Map<string, Set<BusHandler>>();
  return {
    handlers,
    deliver(channel: string, message: unknown) {
      for (const handler of handlers.get(channel) ?? []) {
        try {
          handler(message);
        } catch (error) {
          // One broken subscriber must not keep the message from the others.
          log.warn({ err: error, channel }, 'A bus subscriber failed');
        }
      }
    },
    add(channel: string, handler: BusHandler): { first: boolean; remove: () => boolean } {
      let set = handlers.get(channel);
      const first = !set;
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(handler);
      return {
        first,
        remove() {
          set.delete(handler);
          if (set.size > 0 || handlers.get(channel) !== set) return false;
          handlers.delete(channel);
          return true;
        },
      };
    },
  };
}

/** One process only. */
export function localBus(log: BusLog): Bus {
  const local = localSubscribers(log);
  return {
    publish: (channel, message) => local.deliver(channel, message),
    subscribe: (channel, handler) => local.add(channel, handler).remove,
    ready: async () => {},
    onRejoined: () => {},
    close: async () => {},
  };
}

/**
 * Through Redis pub/sub. `publisher` is the app's shared connection; a connection in subscriber
 * mode can send nothing else, so the bus opens its own for listening (and closes it).
 */
export function redisBus(publisher: Redis, log: BusLog): Bus {
  const self = randomUUID();
  const prefix = `${PREFIX}${publisher.options.db ?? 0}:`;
  const local = localSubscribers(log);
  const listener = publisher.duplicate();
  let pending: Promise<unknown> = Promise.resolve();
  // What Redis did not take while it was away (ioredis gave up on it): sent when it is back, so the
  // other instances hear of those changes then rather than only when their caches expire.
  const unsent: [channel: string, payload: string][] = [];
  const send = (redisChannel: string, payload: string) =>
    publisher.publish(redisChannel, payload).catch((error: unknown) => {
      if (unsent.length === 0) log.warn({ err: error }, 'Publishing on the Redis bus failed: messages wait for Redis');
      if (unsent.push([redisChannel, payload]) > MAX_UNSENT) unsent.shift();
    });
  publisher.on('ready', () => {
    for (const [redisChannel, payload] of unsent.splice(0)) void send(redisChannel, payload);
  });

  listener.on('message', (redisChannel: string, raw: string) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch {
      return;
    }
    if (envelope.from !== self) local.deliver(redisChannel.slice(prefix.length), envelope.message);
  });
  // ioredis reconnects and subscribes again by itself; the error is only worth a line in the log.
  listener.on('error', (error) => log.warn({ err: error }, 'Redis bus connection error'));
  const rejoined = new Set<() => void>();
  let heardBefore = false;
  listener.on('ready', () => {
    if (heardBefore) for (const handler of rejoined) handler();
    heardBefore = true;
  });

  const track = (operation: Promise<unknown>) => {
    pending = Promise.all([
      pending,
      operation.catch((error) => log.warn({ err: error }, 'Redis bus subscription failed')),
    ]);
  };

  return {
    publish(channel, message) {
      local.deliver(channel, message);
      const envelope: Envelope = { from: self, message };
      void send(prefix + channel, JSON.stringify(envelope));
    },
    subscribe(channel, handler) {
      const { first, remove } = local.add(channel, handler);
      if (first) track(listener.subscribe(prefix + channel));
      return () => {
        if (remove()) track(listener.unsubscribe(prefix + channel));
      };
    },
    ready: async () => {
      await pending;
    },
    onRejoined: (handler) => void rejoined.add(handler),
    async close() {
      await pending;
      listener.disconnect();
    },
  };
}
