/**
 * Fedify's message queue on the app's database (SQLite or PostgreSQL): outgoing deliveries (and
 * their fan-outs) wait in `federation_queue` until a worker of any instance takes them.
 * A worker claims one message at a time: on PostgreSQL with `FOR UPDATE SKIP LOCKED` (instances
 * never take the same message nor wait for each other), on SQLite in one statement, its own write
 * transaction (one held across an await would block every other connection's writes). A
 * claim is a lease: a message whose worker died is taken again once the lease ran out.
 */
import type {
  MessageQueue,
  MessageQueueDepth,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from '@fedify/fedify';
import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../db/database';
import type { Database } from '../db/schema';
import { newId } from '../domain/ids';

export interface KyselyMessageQueueOptions {
  /** How often an idle worker looks for due messages (enqueues on this process wake it at once). */
  pollIntervalMs?: number;
  /** How long a claim holds before another worker may take the message. */
  leaseMs?: number;
  /** A handler that threw: how long before the message's next try (`attempts` counts this one). */
  retryDelayMs?: (attempts: number) => number;
  /** Tries before a message whose handler keeps throwing is dropped (and `onDropped` told). */
  maxAttempts?: number;
  onDropped?: (message: unknown, error: unknown) => void;
  /** Messages one `listen` handles at once (each worker takes one at a time). */
  workers?: number;
  /** The clock (epoch ms); tests move it instead of waiting. */
  now?: () => number;
}

export interface KyselyMessageQueue extends MessageQueue {
  getDepth(): Promise<MessageQueueDepth>;
}

interface Claimed {
  id: string;
  message: string;
  attempts: number;
}

/** 1 s, 2 s, 4 s... up to an hour: Fedify retries deliveries itself; this is for handlers that threw. */
const exponentialDelay = (attempts: number) => Math.min(1000 * 2 ** (attempts - 1), 3_600_000);

export function kyselyMessageQueue(db: Kysely<Database>, options: KyselyMessageQueueOptions = {}): KyselyMessageQueue {
  const {
    pollIntervalMs = 1000,
    leaseMs = 5 * 60_000,
    retryDelayMs = exponentialDelay,
    maxAttempts = 10,
    onDropped = () => {},
    workers = 1,
    now = Date.now,
  } = options;
  const postgres = dialectOf(db) === 'postgres';
  // Listeners on this process, woken by its own enqueues rather than at their next poll.
  const sleepers = new Set<() => void>();
  const wake = () => {
    for (const sleeper of sleepers) sleeper();
  };

  const rowsOf = (messages: readonly unknown[], enqueue?: MessageQueueEnqueueOptions) => {
    const delay = enqueue?.delay ? Math.max(0, enqueue.delay.total({ unit: 'millisecond' })) : 0;
    const runAt = now() + delay;
    return messages.map((message) => ({
      id: newId(),
      message: JSON.stringify(message),
      ordering_key: enqueue?.orderingKey ?? null,
      run_at: runAt,
    }));
  };

  /**
   * The next due message nobody holds, held now by this worker. A message with an ordering key
   * waits while an earlier one of that key is still there (held, waiting for a retry, or due).
   */
  async function claim(): Promise<Claimed | undefined> {
    const at = now();
    const due = sql`
      SELECT q.id FROM federation_queue q
      WHERE q.run_at <= ${at}
        AND (q.claimed_until IS NULL OR q.claimed_until < ${at})
        AND (q.ordering_key IS NULL OR NOT EXISTS (
          SELECT 1 FROM federation_queue e WHERE e.ordering_key = q.ordering_key AND e.id < q.id))
      ORDER BY q.run_at, q.id
      LIMIT 1`;
    const statement = sql<Claimed>`
      UPDATE federation_queue SET claimed_until = ${at + leaseMs}, attempts = attempts + 1
      WHERE id = (${due}${postgres ? sql` FOR UPDATE SKIP LOCKED` : sql``})
      RETURNING id, message, attempts`;
    return (await statement.execute(db)).rows[0];
  }

  async function settle(claimed: Claimed, error: unknown | null): Promise<void> {
    if (error === null || claimed.attempts >= maxAttempts) {
      await db.deleteFrom('federation_queue').where('id', '=', claimed.id).execute();
      if (error !== null) onDropped(JSON.parse(claimed.message), error);
      return;
    }
    await db
      .updateTable('federation_queue')
      .set({ claimed_until: null, run_at: now() + retryDelayMs(claimed.attempts) })
      .where('id', '=', claimed.id)
      .execute();
  }

  function nap(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, pollIntervalMs);
      sleepers.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  async function work(handler: (message: unknown) => Promise<void> | void, signal?: AbortSignal): Promise<void> {
    while (!signal?.aborted) {
      let claimed: Claimed | undefined;
      try {
        claimed = await claim();
      } catch {
        claimed = undefined; // the database away for a moment: look again after a nap
      }
      if (!claimed) {
        await nap(signal);
        continue;
      }
      let failure: unknown | null = null;
      try {
        await handler(JSON.parse(claimed.message));
      } catch (error) {
        failure = error ?? new Error('handler failed');
      }
      // Not settled (the database away): the lease runs out and the message is taken again.
      await settle(claimed, failure).catch(() => {});
    }
  }

  return {
    nativeRetrial: false,

    async enqueue(message, enqueue) {
      await db
        .insertInto('federation_queue')
        .values(rowsOf([message], enqueue))
        .execute();
      wake();
    },

    async enqueueMany(messages, enqueue) {
      if (messages.length === 0) return;
      await db.insertInto('federation_queue').values(rowsOf(messages, enqueue)).execute();
      wake();
    },

    // Resolves once stopped and every message in hand is handled and settled: nothing runs after.
    async listen(handler, listen: MessageQueueListenOptions = {}) {
      const { signal } = listen;
      await Promise.all(Array.from({ length: Math.max(1, workers) }, () => work(handler, signal)));
    },
    async getDepth() {
      const at = now();
      const row = await db
        .selectFrom('federation_queue')
        .select([
          sql<number | string>`count(*)`.as('queued'),
          sql<number | string>`count(case when run_at <= ${at} then 1 end)`.as('ready'),
        ])
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
        .executeTakeFirstOrThrow();
      const queued = Number(row.queued);
      const ready = Number(row.ready);
      return { queued, ready, delayed: queued - ready };
    },
  };
}
