/**
 * `npm run restore -- FILE`: an archive of `npm run backup` into an empty `DATA_DIR` (and, on
 * PostgreSQL, an empty database). The manifest is checked before anything is written: an archive
 * of a newer schema than this code knows, or of the other database kind, is refused. The app
 * migrates an older schema when it starts.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Config, SECRETS_FILE } from '../config';
import { isPostgresUrl } from '../db/database';
import { MIGRATION_NAMES } from '../db/migrate';
import { CONTENT_TYPES } from '../media/pipeline';
import type { MediaStorage } from '../media/storage';
import { mediaStorageFor } from '../media/storageFor';
import {
  BackupError,
  type BackupEnd,
  type BackupManifest,
  END_ENTRY,
  MANIFEST_ENTRY,
  MEDIA_PREFIX,
  POSTGRES_ENTRY,
  SECRETS_ENTRY,
  SQLITE_ENTRY,
  configForBackup,
  runPostgresTool,
} from './archive';
import { readTar } from './tar';

export interface RestoreResult {
  manifest: BackupManifest;
  mediaFiles: number;
  /** Files the backup could not read (deleted while it ran): their uploads show no image. */
  missing: string[];
}

export async function restoreBackup(archive: string, env: NodeJS.ProcessEnv = process.env): Promise<RestoreResult> {
  const file = path.resolve(archive);
  if (!existsSync(file)) throw new BackupError(`There is no file ${file}`);
  const { config, secretFromEnv } = configForBackup(env);
  const postgres = isPostgresUrl(config.databaseUrl);
  await refuseUnlessEmpty(config, postgres);

  const work = await mkdtemp(path.join(tmpdir(), 'posts-restore-'));
  const storage = mediaStorageFor(config);
  let manifest: BackupManifest | null = null;
  let end: BackupEnd | null = null;
  let mediaFiles = 0;
  let wrote = false;
  try {
    await readTar(file, async (entry) => {
      if (!manifest && entry.name !== MANIFEST_ENTRY) throw new BackupError(`${file} is not a Posts backup`);
      if (entry.name === MANIFEST_ENTRY)
        return { collect: async (bytes) => void (manifest = checkManifest(bytes, postgres, secretFromEnv)) };
      wrote = true;
      if (entry.name === SECRETS_ENTRY) {
        return {
          collect: async (bytes) => {
            await mkdir(config.dataDir, { recursive: true });
            await writeFile(path.join(config.dataDir, SECRETS_FILE), bytes, { mode: 0o600 });
          },
        };
      }
      if (entry.name === SQLITE_ENTRY || entry.name === POSTGRES_ENTRY) {
        // Written to a work file now, restored once the whole archive has been read and checked.
        return { sink: createWriteStream(path.join(work, path.basename(entry.name))) };
      }
      if (entry.name.startsWith(MEDIA_PREFIX)) {
        return {
          collect: async (bytes) => {
            await putMedia(storage, entry.name.slice(MEDIA_PREFIX.length), bytes);
            mediaFiles += 1;
          },
        };
      }
      if (entry.name === END_ENTRY) return { collect: async (bytes) => void (end = JSON.parse(bytes.toString())) };
      throw new BackupError(`${file} holds an unknown entry ${entry.name}`);
    });
    if (!manifest || !end) throw new BackupError(`${file} is incomplete (no end marker): the backup did not finish`);
    const done = manifest as BackupManifest;
    await restoreDatabase(config, postgres, work);
    return { manifest: done, mediaFiles, missing: (end as BackupEnd).missing };
  } catch (error) {
    // The target was empty: leave it so, and a second try finds it empty again.
    if (wrote) await emptyTarget(config, postgres);
    // Said as a message (exit code 1), not a stack: a damaged archive, a full disk, the bucket away.
    throw error instanceof BackupError
      ? error
      : new BackupError(`Restore failed, nothing kept: ${(error as Error).message}`, { cause: error });
  } finally {
    storage.close?.();
    await rm(work, { recursive: true, force: true });
  }
}

function checkManifest(bytes: Buffer, postgres: boolean, secretFromEnv: boolean): BackupManifest {
  const manifest = JSON.parse(bytes.toString()) as BackupManifest;
  if (manifest.format !== 'posts-backup' || manifest.version !== 1)
    throw new BackupError('This file is not a Posts backup this version can read');
  const unknown = manifest.migrations.filter((name) => !MIGRATION_NAMES.includes(name));
  if (unknown.length > 0)
    throw new BackupError(
      `This backup's schema (${manifest.schemaVersion}) is newer than this code knows (${MIGRATION_NAMES.at(-1)}): restore it with the version of Posts that made it`,
    );
  if ((manifest.dialect === 'postgres') !== postgres)
    throw new BackupError(
      manifest.dialect === 'postgres'
        ? 'This backup is of a PostgreSQL database: set DATABASE_URL to an empty PostgreSQL database'
        : 'This backup is of a SQLite database: unset DATABASE_URL (or set it to sqlite:<file>)',
    );
  if (manifest.secrets === 'environment' && !secretFromEnv)
    throw new BackupError(
      'This backup was made with JWT_SECRET set, so it holds no secrets file: set the same JWT_SECRET to restore it',
    );
  return manifest;
}

async function restoreDatabase(config: Config, postgres: boolean, work: string): Promise<void> {
  if (postgres) {
    // One transaction: a failed restore leaves the database as empty as it was.
    await runPostgresTool('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${config.databaseUrl}`,
      path.join(work, path.basename(POSTGRES_ENTRY)),
    ]);
    return;
  }
  const target = sqliteFileOf(config);
  await mkdir(path.dirname(target), { recursive: true });
  // Copied beside the target, then renamed: the work folder may be on another file system.
  await copyFile(path.join(work, path.basename(SQLITE_ENTRY)), `${target}.partial`);
  await rename(`${target}.partial`, target);
}

const sqliteFileOf = (config: Config) => path.resolve(config.databaseUrl.replace(/^sqlite:(\/\/)?/, ''));

async function putMedia(storage: MediaStorage, key: string, bytes: Buffer): Promise<void> {
  const format = path.extname(key).slice(1) as keyof typeof CONTENT_TYPES;
  await storage.put(key, bytes, CONTENT_TYPES[format] ?? 'application/octet-stream');
}

/** The folders (and database) a restore writes into must hold nothing: it never merges or overwrites. */
async function refuseUnlessEmpty(config: Config, postgres: boolean): Promise<void> {
  const folders = [config.dataDir, ...(config.s3 ? [] : [config.mediaDir])];
  for (const folder of folders) {
    const entries = await readdir(folder).catch(() => []);
    if (entries.length > 0)
      throw new BackupError(`${folder} is not empty: restore only into an empty DATA_DIR (or a new folder)`);
  }
  if (postgres) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    try {
      await client.connect();
    } catch (error) {
      throw new BackupError(`Cannot connect to DATABASE_URL: ${(error as Error).message}`);
    }
    try {
      const { rows } = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
      );
      if (Number(rows[0].n) > 0)
        throw new BackupError('The database DATABASE_URL names is not empty: restore only into a new, empty database');
    } finally {
      await client.end();
    }
  } else if (existsSync(sqliteFileOf(config))) {
    throw new BackupError(`${sqliteFileOf(config)} already exists: restore only into a new database file`);
  }
}

/** Undoes a failed restore's files (the folders were empty before it; the database restore is one transaction). */
async function emptyTarget(config: Config, postgres: boolean): Promise<void> {
  for (const folder of [config.dataDir, ...(config.s3 ? [] : [config.mediaDir])]) {
    const entries = await readdir(folder).catch(() => [] as string[]);
    await Promise.all(entries.map((name) => rm(path.join(folder, name), { recursive: true, force: true })));
  }
  if (!postgres) await rm(sqliteFileOf(config), { force: true });
}
