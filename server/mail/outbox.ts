/**
 * Work that must not hold up an answer: looking an address up and mailing it. A request that
 * queues a task answers in the same time whatever the task finds; failures are logged.
 */
import { limiter } from '../domain/limiter';

export interface Outbox {
  /** Runs `task` after the current request, a few at a time. */
  enqueue(task: () => Promise<void>): void;
  /** Resolves once every task queued so far has finished (shutdown, tests). */
  settled(): Promise<void>;
  /** Tasks queued or running (`/metrics`). */
  pending(): number;
}

export interface OutboxOptions {
  /** Tasks running at once (each may hold an SMTP connection). */
  concurrency?: number;
  /** Beyond this many waiting tasks new ones are dropped (and logged): a stalled mail server must not fill memory. */
  maxQueued?: number;
  onError(error: unknown): void;
  onDropped(): void;
}

export function outbox({ concurrency = 2, maxQueued = 1000, onError, onDropped }: OutboxOptions): Outbox {
  const slots = limiter(concurrency);
  const pending = new Set<Promise<void>>();
  return {
    enqueue(task) {
      if (pending.size >= maxQueued) {
        onDropped();
        return;
      }
      const run = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => slots.run(task))
        .catch(onError)
        .finally(() => pending.delete(run));
      pending.add(run);
    },
    pending: () => pending.size,
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
