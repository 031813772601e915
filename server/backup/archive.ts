/**
 * What a backup archive (`npm run backup`) holds, in this order: `manifest.json` (checked before
 * anything is restored), the generated secrets, the database, every media file the database lists,
 * and `end.json` (the media that could not be read; its presence marks a complete archive).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Config, loadConfig } from '../config';
import type { Dialect } from '../db/database';

export const MANIFEST_ENTRY = 'manifest.json';
export const SECRETS_ENTRY = 'secrets.json';
export const SQLITE_ENTRY = 'database/posts.db';
export const POSTGRES_ENTRY = 'database/postgres.dump';
export const MEDIA_PREFIX = 'media/';
export const END_ENTRY = 'end.json';

/** A refusal the commands print as it is (no stack): a wrong argument, or a state they will not work in. */
export class BackupError extends Error {}

const run = promisify(execFile);

/** Runs `pg_dump` or `pg_restore`; a missing client or its failure becomes a `BackupError` that says which. */
export async function runPostgresTool(tool: 'pg_dump' | 'pg_restore', args: string[]): Promise<void> {
  try {
    await run(tool, args);
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT')
      throw new BackupError(
        `${tool} is not installed: install the PostgreSQL client (apt-get install postgresql-client)`,
      );
    throw new BackupError(`${tool} failed: ${e.stderr?.trim() || e.message}`);
  }
}

export interface BackupManifest {
  format: 'posts-backup';
  version: 1;
  createdAt: string;
  dialect: Dialect;
  /** The last migration applied to the database: the schema version. */
  schemaVersion: string;
  migrations: string[];
  /** `file`: `DATA_DIR/secrets.json` is in the archive; `environment`: JWT_SECRET was set, so nothing was generated. */
  secrets: 'file' | 'environment';
  /** Where the media came from; a restore writes them wherever its own configuration keeps media. */
  mediaStorage: 'local' | 's3';
  /** Files the database snapshot lists (every variant of every upload), and their bytes. */
  media: { files: number; bytes: number };
}

export interface BackupEnd {
  /** Keys listed by the snapshot that could not be read (deleted between the snapshot and their copy). */
  missing: string[];
}

/** One stored file of an upload, as `media.variants` lists it. */
export interface MediaFile {
  key: string;
  bytes: number;
}

/**
 * The configuration without the side effect of loading it: `loadConfig` writes a new secrets file
 * when there is none, which would put a file into the folder a restore must find empty.
 */
export function configForBackup(env: NodeJS.ProcessEnv = process.env): { config: Config; secretFromEnv: boolean } {
  const secretFromEnv = Boolean(env.JWT_SECRET);
  const config = loadConfig({ ...env, JWT_SECRET: env.JWT_SECRET || 'not-used-by-backup-or-restore-'.padEnd(32, 'x') });
  return { config, secretFromEnv };
}

/** Every file the `media` rows list (`variants` JSON). */
export function mediaFilesOf(rows: { variants: string }[]): MediaFile[] {
  return rows.flatMap((row) =>
    (JSON.parse(row.variants) as { key: string; bytes: number }[]).map(({ key, bytes }) => ({ key, bytes })),
  );
}
