/**
 * SQLite's WAL checkpoints, off the request path. SQLite copies the write-ahead log back into the
 * database file (and syncs both) inside the commit that crosses `wal_autocheckpoint`; with
 * better-sqlite3 that commit blocks the event loop, so every request waits behind the disk
 * (docs/benchmarks/log/2026-11-26.md, "A community's mix, the next session"). A worker thread with its own connection
 * checkpoints instead (PASSIVE: it never blocks a reader or the writer), and when the log has grown,
 * asks the app to hold its writes while it copies the last pages, so that the log starts over
 * (`QUIET_AFTER_PAGES`). The app's connection keeps a higher threshold of its own only as a safety
 * net, for a worker that falls far behind.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** WAL pages past which the app's own connection checkpoints anyway (4 KiB each): well past the worker's. */
export const FALLBACK_CHECKPOINT_PAGES = 40_000;

/**
 * WAL pages after a checkpoint past which the worker asks the app to hold its writes for a moment.
 * Under a steady stream of writes the log never starts over: each checkpoint ends after the next
 * commit, and the log grows to the fallback, which the app's connection then copies back inside a
 * commit (tens of ms with the event loop stopped). Held, the worker copies the last pages, the next
 * write starts the log over, and reads go on meanwhile (docs/benchmarks/log/2026-11-28.md, "The log starts over
 * under a stream of writes"). Each hold lasts as long as the last pages' copy and two syncs, whatever
 * the log's size: a larger log is held less often (docs/benchmarks/log/2026-11-29.md, "Writes held less often").
 */
export const QUIET_AFTER_PAGES = 16_000;

/** Before asking for a hold, the worker checkpoints again until a pass copies fewer pages than this. */
const CAUGHT_UP_PAGES = 200;

/** The worker's code: plain JavaScript, so that it runs without the app's TypeScript loader. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 1000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let timer = setTimeout(tick, workerData.everyMs);
// Frames of the log as it is now already copied back (the log starts over from frame 1).
let backfilled = 0;
function checkpointNow(message) {
  try {
    const { log, checkpointed } = checkpoint.get();
    const copied = checkpointed >= backfilled ? checkpointed - backfilled : checkpointed;
    backfilled = checkpointed;
    if (copied > 0 || message.released) parentPort.postMessage({ ...message, copied });
    return { log, checkpointed };
  } catch (error) {
    parentPort.postMessage({ ...message, error: String(error) });
    return { log: 0, checkpointed: 0 };
  }
}
function tick() {
  let done = checkpointNow({});
  if (done.log < workerData.quietAfterPages) {
    timer = setTimeout(tick, workerData.everyMs);
    return;
  }
  // Catch up with the writes first, so that they are held only while the last few pages are copied.
  for (let passes = 0; passes < 3; passes += 1) {
    const before = done.checkpointed;
    done = checkpointNow({});
    if (done.checkpointed < before || done.checkpointed - before < workerData.caughtUpPages) break;
  }
  // The app answers 'held', and the last checkpoint runs then.
  parentPort.postMessage({ hold: true });
}
parentPort.on('message', (message) => {
  if (message === 'held') {
    checkpointNow({ released: true });
    timer = setTimeout(tick, workerData.everyMs);
    return;
  }
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

export interface BackgroundCheckpoints {
  /** Frames copied back into the database file so far. */
  readonly checkpointed: number;
  /** While the worker copies the last pages so the log can start over: what writes wait for. */
  readonly hold: Promise<void> | null;
  /** How many times writes were held so far. */
  readonly holds: number;
  stop(): Promise<void>;
}

/** Longest writes are held for a checkpoint: a disk that stalls a sync must not stall every write too. */
const HOLD_MAX_MS = 1_000;

interface WorkerMessage {
  copied?: number;
  error?: string;
  /** The worker asks for writes to be held (`QUIET_AFTER_PAGES`). */
  hold?: boolean;
  /** It checkpointed while they were: they may go on. */
  released?: boolean;
}

export interface CheckpointOptions {
  everyMs?: number;
  quietAfterPages?: number;
}

/** Checkpoints `file`'s WAL every `everyMs` from a worker thread, until `stop`. */
export function checkpointInBackground(
  file: string,
  { everyMs = 100, quietAfterPages = QUIET_AFTER_PAGES }: CheckpointOptions = {},
): BackgroundCheckpoints {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { file, driver, everyMs, quietAfterPages, caughtUpPages: CAUGHT_UP_PAGES },
  });
  let checkpointed = 0;
  let warned = false;
  let hold: PromiseWithResolvers<void> | null = null;
  let holds = 0;
  const release = () => {
    hold?.resolve();
    hold = null;
    worker.unref();
  };
  worker.on('message', (message: WorkerMessage) => {
    if (message.copied) checkpointed += message.copied;
    // A failing checkpoint (the disk, a lock held long) leaves the app's own threshold to do it.
    if (message.error && !warned) {
      warned = true;
      console.warn(`SQLite background checkpoint failed: ${message.error}`);
    }
    if (message.hold) {
      // No write is running now (each runs within one turn): from here the steps runner waits.
      const held = Promise.withResolvers<void>();
      hold = held;
      holds += 1;
      // Writes wait on the worker's answer now: it keeps the process up until then.
      worker.ref();
      setTimeout(() => hold === held && release(), HOLD_MAX_MS).unref();
      worker.postMessage('held');
    }
    if (message.released) release();
  });
  worker.on('error', (error: Error) => console.warn(`SQLite checkpoint worker stopped: ${error.message}`));
  // It never keeps the process alive by itself.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(release);
  return {
    get checkpointed() {
      return checkpointed;
    },
    get hold() {
      return hold?.promise ?? null;
    },
    get holds() {
      return holds;
    },
    async stop() {
      // Kept up until the worker has closed its connection: nothing else may be left to wait on.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
