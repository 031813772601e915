import type { Readable } from 'node:stream';

/**
 * Where media bytes live. The local-disk driver is the default; an S3-compatible driver can
 * implement the same interface later without touching callers.
 */
export interface MediaStorage {
  /** Writes the bytes under `key` (server-made, e.g. `post/0190.../1080.webp`). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Removes the keys; missing ones are ignored. */
  remove(keys: string[]): Promise<void>;
  /** The bytes stored under `key`, streamed (a user's data export). */
  read(key: string): Readable;
  /** Public URL of a key. */
  url(key: string): string;
}
