/**
 * Uploads nothing refers to any more: a picture uploaded in a composer that was closed without
 * posting, a post's image after an edit replaced it, an avatar or banner replaced since (a deleted
 * post's photos go with it, `removeUnused` of the media service; only a crash right after the
 * delete leaves them to this). Without this their files would stay on disk for ever. Once an upload is older
 * than a grace period (a composer may still be open on it) and no post or profile refers to it,
 * its row and its files are removed.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { removeUnusedUploads } from './service';
import type { MediaStorage } from './storage';

/** Rows looked at per statement: each batch must be short, so requests run between batches (docs/benchmarks/notes.md#media). */
const BATCH = 500;

/**
 * Removes the uploads made before `before` that no post's photo and no avatar or banner uses; returns how
 * many. Every candidate is checked again by the DELETE itself, so a reference made meanwhile
 * keeps it. Rows go first, then files: a crash in between leaves unlisted files, never a row
 * pointing at missing files.
 */
export async function removeUnusedMedia(db: Kysely<Database>, storage: MediaStorage, before: Date): Promise<number> {
  let after = '';
  let removed = 0;
  for (;;) {
    const ids = (
      await db.selectFrom('media').select('id').where('id', '>', after).orderBy('id').limit(BATCH).execute()
    ).map((row) => row.id);
    if (ids.length === 0) return removed;
    after = ids[ids.length - 1];
    removed += await removeUnusedUploads(db, storage, ids, before);
  }
}

export interface UnusedMediaSweeper {
  /** Sweeps once soon after start, then every `everyMs`. */
  start(): void;
  /** Stops the timer and waits for a sweep in progress. */
  close(): Promise<void>;
}

/**
 * Runs `removeUnusedMedia` on a timer for uploads older than `graceMs`. Several instances may
 * sweep at once: each removal is checked in its own statement and removing a file twice is a no-op.
 */
export function unusedMediaSweeper(
  sweep: (before: Date) => Promise<number>,
  {
    graceMs,
    everyMs = 60 * 60_000,
    firstAfterMs = 60_000,
    onDone,
    onError,
  }: {
    graceMs: number;
    everyMs?: number;
    firstAfterMs?: number;
    onDone?: (removed: number) => void;
    onError?: (error: unknown) => void;
  },
): UnusedMediaSweeper {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let closed = false;
  const schedule = (delayMs: number) => {
    if (closed) return;
    timer = setTimeout(() => {
      running = sweep(new Date(Date.now() - graceMs))
        .then(onDone, onError)
        .finally(() => {
          running = null;
          schedule(everyMs);
        });
    }, delayMs);
    // A pending sweep never keeps the process alive.
    timer.unref();
  };
  return {
    start: () => schedule(firstAfterMs),
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
    },
  };
}
