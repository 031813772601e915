/**
 * SQLite's WAL checkpoints, off the request path. SQLite copies the write-ahead log back into the
 * database file (and syncs both) inside the commit that crosses `wal_autocheckpoint`; with
 * better-sqlite3 that commit blocks the event loop, so every request waits behind the disk
 * (docs/benchmarks.md, "Checkpoints off the event loop"). A worker thread with its own connection
 * checkpoints instead (PASSIVE: it never blocks a reader or the writer); the app's connection keeps
 * a higher threshold of its own only as a safety net, for a worker that falls far behind.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** WAL pages past which the app's own connection checkpoints anyway (4 KiB each). */
export const FALLBACK_CHECKPOINT_PAGES = 10_000;

/** The worker's code: plain JavaScript, so that it runs without the app's TypeScript loader. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 1000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    const { log, checkpointed } = checkpoint.get();
    if (checkpointed > 0) parentPort.postMessage({ log, checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface BackgroundCheckpoints {
  /** Frames copied back into the database file so far. */
  readonly checkpointed: number;
  stop(): Promise<void>;
}

/** Checkpoints `file`'s WAL every `everyMs` from a worker thread, until `stop`. */
export function checkpointInBackground(file: string, everyMs = 250): BackgroundCheckpoints {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, everyMs } });
  let checkpointed = 0;
  let warned = false;
  worker.on('message', (message: { checkpointed?: number; error?: string }) => {
    if (message.checkpointed) checkpointed += message.checkpointed;
    // A failing checkpoint (the disk, a lock held long) leaves the app's own threshold to do it.
    if (message.error && !warned) {
      warned = true;
      console.warn(`SQLite background checkpoint failed: ${message.error}`);
    }
  });
  worker.on('error', (error: Error) => console.warn(`SQLite checkpoint worker stopped: ${error.message}`));
  // It never keeps the process alive by itself.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    get checkpointed() {
      return checkpointed;
    },
    async stop() {
      worker.postMessage('stop');
      await exited;
    },
  };
}
