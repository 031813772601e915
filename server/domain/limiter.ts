/** A counting semaphore: at most `slots` holders at once, the rest wait in arrival order. */
export interface Limiter {
  /** Waits for a slot; the returned function frees it (calling it again does nothing). */
  acquire(): Promise<() => void>;
  /** Runs `task` in a slot. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks waiting for a slot. */
  waiting(): number;
}

export function limiter(slots: number): Limiter {
  const waiting: (() => void)[] = [];
  let running = 0;

  async function acquire(): Promise<() => void> {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      // Hand the slot straight to the next waiter, or free it.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    };
  }

  return {
    acquire,
    waiting: () => waiting.length,
    async run(task) {
      const release = await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

/** A limiter whose waiters belong to someone (a user): the slots go round, not first come first served. */
export interface FairLimiter {
  /**
   * Waits for a slot for `key`. A freed slot goes to the waiting key that started a task least
   * recently (one that has not started any, first), so one key's many tasks never hold back another's.
   */
  acquire(key: string): Promise<() => void>;
  /** How many of `key`'s tasks hold or wait for a slot. */
  pending(key: string): number;
  /** Tasks holding a slot and tasks waiting for one, over every key (the admin overview). */
  depth(): { running: number; queued: number };
}

export function fairLimiter(slots: number): FairLimiter {
  /** Each key's waiters, in arrival order; a key is here only while it has some. */
  const waiting = new Map<string, (() => void)[]>();
  /** Per key with pending tasks: how many, and when (a count of starts) it last started one. */
  const keys = new Map<string, { pending: number; lastStart: number }>();
  let running = 0;
  let starts = 0;

  function releaser(key: string): () => void {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const entry = keys.get(key)!;
      if (--entry.pending === 0) keys.delete(key);
      handOn();
    };
  }

  /** Gives a freed slot to the next key's first waiter, or frees it. */
  function handOn(): void {
    let next: string | undefined;
    // Map order is arrival order of each key's first waiter, so ties go to who waited longest.
    for (const key of waiting.keys())
      if (next === undefined || keys.get(key)!.lastStart < keys.get(next)!.lastStart) next = key;
    if (next === undefined) {
      running -= 1;
      return;
    }
    // Counted as started now, not when the waiter runs: another slot freed meanwhile must see it.
    keys.get(next)!.lastStart = ++starts;
    const queue = waiting.get(next)!;
    const wake = queue.shift()!;
    if (queue.length === 0) waiting.delete(next);
    wake();
  }

  return {
    async acquire(key) {
      const entry = keys.get(key) ?? { pending: 0, lastStart: 0 };
      entry.pending += 1;
      keys.set(key, entry);
      if (running >= slots) {
        await new Promise<void>((resolve) => {
          const queue = waiting.get(key);
          if (queue) queue.push(resolve);
          else waiting.set(key, [resolve]);
        });
      } else {
        running += 1;
        entry.lastStart = ++starts;
      }
      return releaser(key);
    },
    pending: (key) => keys.get(key)?.pending ?? 0,
    depth() {
      let queued = 0;
      for (const queue of waiting.values()) queued += queue.length;
      return { running, queued };
    },
  };
}
