/**
 * A full disk (issue 68, item 36): a write that failed for want of space answers 507
 * `InsufficientStorage` (`http/errorHandler.ts`) rather than 500, and the health check says
 * `storage: "full"` from then until a write succeeds again, or while the data folder's file system
 * has less than `MIN_FREE_BYTES` left (what one upload and its variants take, with room for the
 * SQLite write-ahead log), so monitoring sees it before and after the first refusal.
 */
import { statfs } from 'node:fs/promises';

/** Below this much free space on the data folder's file system, health says `storage: "full"`. */
export const MIN_FREE_BYTES = 16 * 1024 * 1024;

/**
 * Error codes that mean "no space left": the OS's (local media, SQLite's files), SQLite's own,
 * PostgreSQL's `disk_full` (class 53, insufficient resources).
 */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100']);

/** True when `error`, or an error it wraps (`cause`), says the storage is full. */
export function isStorageFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as Error).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && FULL_CODES.has(code)) return true;
  }
  return false;
}

export type StorageState = 'ok' | 'full';

export interface StorageHealth {
  /** A write failed for want of space. */
  full(): void;
  /** Whether a write failed for want of space since the last one that succeeded. */
  isFull(): boolean;
  /** A write succeeded: space was found again. */
  wrote(): void;
  /** The health check's answer: the last write's outcome, and the free space left in `folders`. */
  check(): Promise<StorageState>;
}

/** `folders`: where this process writes (the data folder; the media folder when media are on local disk). */
export function storageHealth(folders: string[], minFreeBytes = MIN_FREE_BYTES): StorageHealth {
  let full = false;
  const freeBytes = async (folder: string) => {
    try {
      const stats = await statfs(folder);
      return stats.bavail * stats.bsize;
    } catch {
      return Infinity; // not made yet, or not ours to read: nothing to say about its space
    }
  };
  return {
    full: () => void (full = true),
    isFull: () => full,
    wrote: () => void (full = false),
    async check() {
      if (full) return 'full';
      const free = await Promise.all(folders.map(freeBytes));
      return free.some((bytes) => bytes < minFreeBytes) ? 'full' : 'ok';
    },
  };
}
