/**
 * Runs the imports' rows for people elsewhere in the background, one job at a time per process:
 * a job is claimed in the database with a lease (renewed after each row), so instances share the
 * work and a job whose process died is taken over once its lease ran out, after a restart too.
 */
import type { AccountListsRepository } from './repository';
import { IMPORT_LEASE_MS } from './service';

class Stopped extends Error {}

export interface ImportWorkerDeps {
  repo: Pick<AccountListsRepository, 'claim' | 'extendClaim' | 'release'>;
  run: (jobId: string, keepHolding: () => Promise<void>) => Promise<void>;
  /** How often an idle worker looks for jobs (a job made on this process wakes it at once). */
  pollMs?: number;
  onError: (error: unknown) => void;
  now?: () => number;
}

export function importWorker({ repo, run, pollMs = 5000, onError, now = Date.now }: ImportWorkerDeps) {
  const stop = new AbortController();
  let wakeUp: (() => void) | null = null;
  let loop: Promise<void> | null = null;

  const nap = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        stop.signal.removeEventListener('abort', done);
        resolve();
      }
      wakeUp = done;
      stop.signal.addEventListener('abort', done, { once: true });
    });

  async function once(): Promise<boolean> {
    const jobId = await repo.claim(now(), now() + IMPORT_LEASE_MS);
    if (!jobId) return false;
    try {
      await run(jobId, async () => {
        // Stopping: the job is let go between two rows, and the next process goes on from there.
        if (stop.signal.aborted) throw new Stopped();
        await repo.extendClaim(jobId, now() + IMPORT_LEASE_MS);
      });
    } finally {
      await repo.release(jobId).catch(() => {}); // not released: the lease runs out instead
    }
    return true;
  }

  async function work() {
    while (!stop.signal.aborted) {
      let busy = false;
      try {
        busy = await once();
      } catch (error) {
        if (!(error instanceof Stopped)) onError(error);
      }
      if (!busy) await nap();
    }
  }

  return {
    start() {
      loop ??= work();
    },
    /** A job is waiting: look now rather than at the next poll. */
    wake() {
      wakeUp?.();
    },
    async close() {
      stop.abort();
      await loop;
    },
  };
}

export type ImportWorker = ReturnType<typeof importWorker>;
