/**
 * Fedify's key–value store and message queue on the app's database (server/federation/kvStore.ts,
 * messageQueue.ts), on SQLite and PostgreSQL. The clock is the tests' own: delays and expiries are
 * moved through, never waited for.
 */
import { testMessageQueue } from '@fedify/testing';
import { duration } from '../../server/federation/temporal';
import { type Db, openDatabase } from '../../server/db/database';
import { kyselyKvStore } from '../../server/federation/kvStore';
import { type KyselyMessageQueueOptions, kyselyMessageQueue } from '../../server/federation/messageQueue';
import { type TestApp, createTestApp } from './helpers';

let t: TestApp;
let clock = Date.parse('2026-11-26T12:00:00Z');
const now = () => clock;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.db.kysely.deleteFrom('federation_queue').execute();
  await t.db.kysely.deleteFrom('federation_kv').execute();
});

/** Resolves once `check` holds, looking again after each turn of the event loop's timers. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the key–value store', () => {
  it('gets, sets, overwrites and deletes values of any JSON shape', async () => {
    const kv = kyselyKvStore(t.db.kysely, now);
    expect(await kv.get(['a'])).toBeUndefined();
    await kv.set(['a', 'b'], { n: 1, list: ['x', null], emoji: '🙂' });
    expect(await kv.get(['a', 'b'])).toEqual({ n: 1, list: ['x', null], emoji: '🙂' });
    await kv.set(['a', 'b'], 'second');
    expect(await kv.get(['a', 'b'])).toBe('second');
    await kv.delete(['a', 'b']);
    expect(await kv.get(['a', 'b'])).toBeUndefined();
    await kv.delete(['never', 'there']);
  });

  it('forgets a value once its time to live has run out', async () => {
    const kv = kyselyKvStore(t.db.kysely, now);
    await kv.set(['short'], 1, { ttl: duration({ seconds: 30 }) });
    await kv.set(['kept'], 2);
    expect(await kv.get(['short'])).toBe(1);
    clock += 29_000;
    expect(await kv.get(['short'])).toBe(1);
    clock += 2_000;
    expect(await kv.get(['short'])).toBeUndefined();
    expect(await kv.get(['kept'])).toBe(2);
    expect([...(await collect(kv.list()))].map((e) => e.key)).toEqual([['kept']]);
    expect(await kv.sweep()).toBe(1);
  });

  it('lists by prefix: the key itself and those below it, never a longer part, case or a LIKE wildcard', async () => {
    const kv = kyselyKvStore(t.db.kysely, now);
    for (const key of [['p'], ['p', 'a'], ['p', 'a', 'b'], ['pq'], ['P', 'a'], ['p%', 'x'], ['p_'], ['q']] as const)
      await kv.set(key, key.join('/'));
    const keys = async (prefix?: [string, ...string[]]) =>
      (await collect(kv.list(prefix))).map((e) => e.key.join('/')).sort();
    expect(await keys(['p'])).toEqual(['p', 'p/a', 'p/a/b']);
    expect(await keys(['p', 'a'])).toEqual(['p/a', 'p/a/b']);
    expect(await keys(['p%'])).toEqual(['p%/x']);
    expect(await keys()).toHaveLength(8);
  });

  it('swaps a value only when it still is the expected one', async () => {
    const kv = kyselyKvStore(t.db.kysely, now);
    expect(await kv.cas!(['c'], undefined, 1)).toBe(true);
    expect(await kv.cas!(['c'], undefined, 2)).toBe(false);
    expect(await kv.cas!(['c'], 1, { v: 3 })).toBe(true);
    expect(await kv.cas!(['c'], { v: 3 }, 4)).toBe(true);
    expect(await kv.get(['c'])).toBe(4);
  });
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A queue on `db` with the tests' clock, and its listener with what it handled. */
function worker(db: Db, handle: (message: unknown) => void, options: KyselyMessageQueueOptions = {}) {
  const queue = kyselyMessageQueue(db.kysely, { pollIntervalMs: 10, now, ...options });
  const stop = new AbortController();
  const listening = queue.listen(async (message) => handle(message), { signal: stop.signal });
  return {
    queue,
    async stop() {
      stop.abort();
      await listening;
    },
  };
}

const rows = () => t.db.kysely.selectFrom('federation_queue').selectAll().execute();

describe('the message queue', () => {
  it('hands an enqueued message to a listener once, and removes it when handled', async () => {
    const handled: unknown[] = [];
    const w = worker(t.db, (m) => handled.push(m));
    await w.queue.enqueue({ type: 'outbox', n: 1 });
    await w.queue.enqueueMany!([{ n: 2 }, { n: 3 }]);
    await until(async () => handled.length === 3 && (await rows()).length === 0);
    await w.stop();
    expect(handled).toEqual([{ type: 'outbox', n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('holds a delayed message until its time', async () => {
    const handled: unknown[] = [];
    const w = worker(t.db, (m) => handled.push(m));
    await w.queue.enqueue('later', { delay: duration({ minutes: 5 }) });
    await w.queue.enqueue('now');
    await until(() => handled.length === 1);
    expect(await w.queue.getDepth()).toEqual({ queued: 1, ready: 0, delayed: 1 });
    clock += 5 * 60_000;
    await until(() => handled.length === 2);
    await w.stop();
    expect(handled).toEqual(['now', 'later']);
  });

  it('tries a message whose handler threw again after a growing delay, and drops it after the last try', async () => {
    const tries: unknown[] = [];
    const dropped: unknown[] = [];
    const w = worker(
      t.db,
      (m) => {
        tries.push(m);
        throw new Error('the peer is down');
      },
      { maxAttempts: 3, retryDelayMs: (attempts) => attempts * 60_000, onDropped: (m) => dropped.push(m) },
    );
    await w.queue.enqueue('flaky');
    await until(async () => tries.length === 1 && (await rows())[0]?.claimed_until === null);
    const [first] = await rows();
    expect(Number(first.run_at)).toBe(clock + 60_000);
    expect(first.attempts).toBe(1);
    clock += 60_000;
    await until(async () => tries.length === 2 && (await rows())[0]?.claimed_until === null);
    expect(Number((await rows())[0].run_at)).toBe(clock + 120_000);
    clock += 120_000;
    await until(() => dropped.length === 1);
    await w.stop();
    expect(tries).toEqual(['flaky', 'flaky', 'flaky']);
    expect(await rows()).toEqual([]);
  });

  it('runs the messages of one ordering key one after the other, in order', async () => {
    const handled: string[] = [];
    let release: () => void = () => {};
    const w = worker(t.db, async (m) => {
      handled.push(m as string);
      if (m === 'create') await new Promise<void>((resolve) => (release = resolve));
    });
    await w.queue.enqueue('create', { orderingKey: 'post-1' });
    await w.queue.enqueue('delete', { orderingKey: 'post-1' });
    await w.queue.enqueue('other', { orderingKey: 'post-2' });
    // A second worker on another connection must not take `delete` while `create` is held.
    const handled2: string[] = [];
    const db2 = openDatabase(t.config.databaseUrl);
    const w2 = worker(db2, (m) => handled2.push(m as string));
    await until(() => handled.length + handled2.length === 2);
    expect([...handled, ...handled2].sort()).toEqual(['create', 'other']);
    release();
    await until(() => handled.length + handled2.length === 3);
    await w.stop();
    await w2.stop();
    await db2.close();
    expect([...handled, ...handled2]).toContain('delete');
  });

  it('shares the messages between instances on one database, each handled exactly once', async () => {
    const seen: number[] = [];
    const db2 = openDatabase(t.config.databaseUrl);
    const db3 = openDatabase(t.config.databaseUrl);
    const workers = [t.db, db2, db3].map((db) => worker(db, (m) => seen.push(m as number)));
    await workers[0].queue.enqueueMany!(Array.from({ length: 60 }, (_, i) => i));
    await until(() => seen.length >= 60);
    await Promise.all(workers.map((w) => w.stop()));
    await db2.close();
    await db3.close();
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it("passes Fedify's own checks of a message queue (delays, batches, several listeners, ordering keys)", async () => {
    const handles: Db[] = [];
    await testMessageQueue(
      () => {
        const db = openDatabase(t.config.databaseUrl);
        handles.push(db);
        return kyselyMessageQueue(db.kysely, { pollIntervalMs: 50 });
      },
      async ({ controller }) => {
        controller.abort();
        await Promise.all(handles.map((db) => db.close()));
      },
      { testOrderingKey: true },
    );
  });

  it('takes a message again when the worker holding it died (its lease ran out)', async () => {
    const queue = kyselyMessageQueue(t.db.kysely, { now, leaseMs: 60_000, pollIntervalMs: 10 });
    await queue.enqueue('orphan');
    // A worker claims it and is never heard of again.
    await t.db.kysely
      .updateTable('federation_queue')
      .set({ claimed_until: clock + 60_000 })
      .execute();
    const handled: unknown[] = [];
    const w = worker(t.db, (m) => handled.push(m), { leaseMs: 60_000 });
    expect(await queue.getDepth()).toEqual({ queued: 0, ready: 0, delayed: 0 });
    clock += 60_001;
    await until(() => handled.length === 1);
    await w.stop();
    expect(handled).toEqual(['orphan']);
  });
});
