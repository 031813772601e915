/**
 * Where media bytes live: the local disk (`localStorage.ts`, the default) or an S3-compatible
 * bucket (`s3Storage.ts`); `storageFor.ts` picks one from the configuration.
 */
export interface MediaStorage {
  /** Writes the bytes under `key` (server-made, e.g. `post/0190.../1080.webp`). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Removes the keys; missing ones are ignored. */
  remove(keys: string[]): Promise<void>;
  /** Public URL of a key. */
  url(key: string): string;
  /** Releases the driver's connections, once, at shutdown. */
  close?(): void;
}
