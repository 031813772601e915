/**
 * Messages between this app's instances. Alone, a message reaches this process's subscribers;
 * with Redis (`REDIS_URL`), it also reaches every other instance through Redis pub/sub.
 *
 * A message is delivered here synchronously when published, so an instance never waits on
 * Redis to see its own change; the copy Redis echoes back is recognised by its sender id and
 * dropped. Messages are JSON: ids and small facts, never whole rows.
 *
 * Through Redis every message is numbered (`busSequence.ts`): a receiver that misses one, or stops
 * hearing a publisher, says so (`onMissed`) and the caches forget everything, never serving stale.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type MissedReason, sequenceTracker } from './busSequence';

export type BusHandler = (message: unknown) => void;

export interface Bus {
  /** Delivers `message` to every subscriber of `channel`, here and on the other instances. */
  publish(channel: string, message: unknown): void;
  /** Returns the function that unsubscribes. */
  subscribe(channel: string, handler: BusHandler): () => void;
  /** Resolves once the subscriptions made so far also hear the other instances. */
  ready(): Promise<void>;
  /**
   * Calls `handler` each time this instance may have missed another's message: a gap in a
   * publisher's numbers, a publisher silent past the bound, the connection back after a cut.
   */
  onMissed(handler: (reason: MissedReason) => void): void;
  /**
   * Whether this instance hears the others now: its own heartbeats come back through Redis within
   * the bound. False: nothing it keeps can be trusted (the caches start over on every request).
   */
  hearing(): boolean;
  /** This instance's publisher id and the last number it sent (what a reader's version names). */
  position(): { id: string; seq: number };
  /**
   * True once everything `id` sent up to `seq` was delivered here or covered by a forget; waits for
   * it up to the silence bound (false then).
   */
  caughtUp(id: string, seq: number): boolean | Promise<boolean>;
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

/** Messages kept while Redis is away; past it, the oldest go (the receivers see the gap and forget). */
const MAX_UNSENT = 10_000;

/** The one Redis channel every message travels on: one publisher's numbers are seen in one order. */
const REDIS_CHANNEL = 'messages';

/** A message (`channel`, `message`), or a heartbeat (`beat`; `bye` when its publisher closes) saying the last number sent. */
interface Envelope {
  from: string;
  seq: number;
  channel?: string;
  message?: unknown;
  beat?: true;
  bye?: true;
}

export interface RedisBusOptions {
  /** How often this instance says it is alive, with its last number (default 1 s). */
  heartbeatMs?: number;
  /** A publisher not heard for this long may have lost messages: forget (default three heartbeats and a half). */
  silenceMs?: number;
  /**
   * Tests only: what arrives from Redis goes through this before it is read (to drop, delay,
   * duplicate or reorder it); `deliver` reads it.
   */
  faults?: (raw: string, deliver: (raw: string) => void) => void;
}

export const DEFAULT_HEARTBEAT_MS = 1_000;

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
    onMissed: () => {},
    hearing: () => true,
    position: () => ({ id: 'local', seq: 0 }),
    caughtUp: () => true,
    close: async () => {},
  };
}

/**
 * Through Redis pub/sub. `publisher` is the app's shared connection; a connection in subscriber
 * mode can send nothing else, so the bus opens its own for listening (and closes it).
 */
export function redisBus(publisher: Redis, log: BusLog, options: RedisBusOptions = {}): Bus {
  const self = randomUUID();
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const silenceMs = options.silenceMs ?? Math.round(3.5 * heartbeatMs);
  const redisChannel = `${PREFIX}${publisher.options.db ?? 0}:${REDIS_CHANNEL}`;
  const local = localSubscribers(log);
  const listener = publisher.duplicate();
  const missedHandlers = new Set<(reason: MissedReason) => void>();
  const missed = (reason: MissedReason) => {
    log.warn({ reason }, 'The bus may have missed a message: every cache starts over');
    for (const handler of missedHandlers) handler(reason);
  };
  const tracker = sequenceTracker({ silenceMs, onMissed: missed });
  let seq = 0;
  let listening = false;
  /** When this instance last heard its own message back through Redis. */
  let echoAt = -Infinity;
  let pending: Promise<unknown> = Promise.resolve();
  // What Redis did not take while it was away (ioredis gave up on it): sent when it is back, in
  // order; the receivers tell a gap from a late message by the numbers.
  const unsent: string[] = [];
  const send = (payload: string) =>
    publisher.publish(redisChannel, payload).catch((error: unknown) => {
      if (unsent.length === 0) log.warn({ err: error }, 'Publishing on the Redis bus failed: messages wait for Redis');
      if (unsent.push(payload) > MAX_UNSENT) unsent.shift();
    });
  publisher.on('ready', () => {
    for (const payload of unsent.splice(0)) void send(payload);
  });
  const beat = (bye = false) => {
    const envelope: Envelope = bye ? { from: self, seq, beat: true, bye: true } : { from: self, seq, beat: true };
    return send(JSON.stringify(envelope));
  };

  const read = (raw: string) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch {
      return;
    }
    if (typeof envelope?.from !== 'string' || typeof envelope.seq !== 'number') return;
    if (envelope.from === self) {
      echoAt = performance.now();
      return;
    }
    if (envelope.beat) return tracker.beat(envelope.from, envelope.seq, envelope.bye === true);
    if (tracker.message(envelope.from, envelope.seq) && typeof envelope.channel === 'string')
      local.deliver(envelope.channel, envelope.message);
  };
  const faults = options.faults;
  listener.on('message', (_channel: string, raw: string) => (faults ? faults(raw, read) : read(raw)));
  // ioredis reconnects and subscribes again by itself; the error is only worth a line in the log.
  listener.on('error', (error) => log.warn({ err: error }, 'Redis bus connection error'));
  let heardBefore = false;
  listener.on('ready', () => {
    if (heardBefore) missed('rejoined');
    heardBefore = true;
  });
  listener.on('close', () => (echoAt = -Infinity));

  const timer = setInterval(() => {
    void beat();
    tracker.checkSilence();
  }, heartbeatMs);
  // The heartbeat alone must not keep a process alive.
  timer.unref();

  const track = (operation: Promise<unknown>) => {
    pending = Promise.all([
      pending,
      operation.catch((error) => log.warn({ err: error }, 'Redis bus subscription failed')),
    ]);
  };

  return {
    publish(channel, message) {
      local.deliver(channel, message);
      seq += 1;
      const envelope: Envelope = { from: self, seq, channel, message };
      void send(JSON.stringify(envelope));
    },
    subscribe(channel, handler) {
      const { remove } = local.add(channel, handler);
      if (!listening) {
        listening = true;
        // Heard back at once: this instance hears the bus from its first heartbeat on.
        track(listener.subscribe(redisChannel).then(() => beat()));
      }
      return () => void remove();
    },
    ready: async () => {
      await pending;
    },
    onMissed: (handler) => void missedHandlers.add(handler),
    hearing: () => !listening || performance.now() - echoAt <= silenceMs,
    position: () => ({ id: self, seq }),
    caughtUp(id, upTo) {
      if (id === self || tracker.heardUpTo(id) >= upTo) return true;
      return new Promise<boolean>((resolve) => {
        const done = (caught: boolean) => {
          clearTimeout(late);
          stop();
          resolve(caught);
        };
        const late = setTimeout(() => done(false), silenceMs);
        const stop = tracker.onProgress(() => tracker.heardUpTo(id) >= upTo && done(true));
      });
    },
    async close() {
      clearInterval(timer);
      await pending;
      // The others stop watching this publisher without a forget, once they have its last number.
      await beat(true);
      listener.disconnect();
    },
  };
}
