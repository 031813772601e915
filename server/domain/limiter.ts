/** A counting semaphore: at most `slots` holders at once, the rest wait in arrival order. */
export interface Limiter {
  /** Waits for a slot; the returned function frees it (calling it again does nothing). */
  acquire(): Promise<() => void>;
  /** Runs `task` in a slot. */
  run<T>(task: () => Promise<T>): Promise<T>;
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
