/**
 * `npm run backup`: one consistent archive of a running instance. The database snapshot comes
 * first (SQLite's online backup API; PostgreSQL's `pg_dump -Fc` inside an exported snapshot), then
 * the media files that snapshot lists, read through the configured storage (local disk or S3): a
 * file uploaded after the snapshot is not needed by it, and every file it references is copied.
 */
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { SECRETS_FILE } from '../config';
import { isPostgresUrl } from '../db/database';
import { mediaStorageFor } from '../media/storageFor';
import {
  BackupError,
  type BackupEnd,
  type BackupManifest,
  END_ENTRY,
  MANIFEST_ENTRY,
  MEDIA_PREFIX,
  type MediaFile,
  POSTGRES_ENTRY,
  SECRETS_ENTRY,
  SQLITE_ENTRY,
  configForBackup,
  mediaFilesOf,
  runPostgresTool,
} from './archive';
import { type TarWriter, tarWriter } from './tar';

/** What the snapshot holds beyond the database file: its schema version and the media it lists. */
interface Snapshot {
  file: string;
  migrations: string[];
  media: MediaFile[];
}

export interface BackupResult {
  manifest: BackupManifest;
  missing: string[];
}

export async function makeBackup(out: string, env: NodeJS.ProcessEnv = process.env): Promise<BackupResult> {
  const { config, secretFromEnv } = configForBackup(env);
  const target = path.resolve(out);
  if (existsSync(target)) throw new BackupError(`${target} already exists; name a new file`);
  const work = await mkdtemp(path.join(tmpdir(), 'posts-backup-'));
  const partial = `${target}.partial`;
  const storage = mediaStorageFor(config);
  try {
    const postgres = isPostgresUrl(config.databaseUrl);
    const snapshot = postgres
      ? await postgresSnapshot(config.databaseUrl, work)
      : await sqliteSnapshot(config.databaseUrl.replace(/^sqlite:(\/\/)?/, ''), work);
    if (snapshot.migrations.length === 0)
      throw new BackupError('The database has no schema yet (run the app or npm run migrate first)');

    const secretsFile = path.join(config.dataDir, SECRETS_FILE);
    const secrets = !secretFromEnv && existsSync(secretsFile) ? await readFile(secretsFile) : null;
    const manifest: BackupManifest = {
      format: 'posts-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      dialect: postgres ? 'postgres' : 'sqlite',
      schemaVersion: snapshot.migrations.at(-1)!,
      migrations: snapshot.migrations,
      secrets: secrets ? 'file' : 'environment',
      mediaStorage: config.s3 ? 's3' : 'local',
      media: { files: snapshot.media.length, bytes: snapshot.media.reduce((sum, f) => sum + f.bytes, 0) },
    };

    await rm(partial, { force: true });
    const tar = tarWriter(partial);
    await tar.add(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2)));
    if (secrets) await tar.add(SECRETS_ENTRY, secrets);
    const { size } = await stat(snapshot.file);
    await tar.addStream(postgres ? POSTGRES_ENTRY : SQLITE_ENTRY, size, createReadStream(snapshot.file));
    const missing = await copyMedia(tar, snapshot.media, (key) => storage.read(key));
    const end: BackupEnd = { missing };
    await tar.add(END_ENTRY, Buffer.from(JSON.stringify(end)));
    await tar.finish();
    await rename(partial, target);
    return { manifest, missing };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    storage.close?.();
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * SQLite's online backup API copies the pages of one consistent read while the app keeps writing
 * (WAL); all pages in one step, so a commit by the app between steps cannot restart it for ever.
 */
async function sqliteSnapshot(dbFile: string, work: string): Promise<Snapshot> {
  if (!existsSync(dbFile)) throw new BackupError(`There is no database at ${dbFile}`);
  const file = path.join(work, 'posts.db');
  const source = new SQLite(dbFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(file, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new SQLite(file, { readonly: true });
  try {
    const migrations = copy.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all() as string[];
    const media = mediaFilesOf(copy.prepare('SELECT variants FROM media').all() as { variants: string }[]);
    return { file, migrations, media };
  } catch {
    throw new BackupError(`${dbFile} is not a Posts database`);
  } finally {
    copy.close();
  }
}

/**
 * `pg_dump -Fc` of a snapshot this connection exported, so the schema version and the media read
 * here are those of the very data dumped.
 */
async function postgresSnapshot(url: string, work: string): Promise<Snapshot> {
  const file = path.join(work, 'postgres.dump');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const { rows } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
    let migrations: string[];
    let media: MediaFile[];
    try {
      migrations = (await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map(
        (row) => row.name,
      );
      media = mediaFilesOf((await client.query<{ variants: string }>('SELECT variants FROM media')).rows);
    } catch {
      throw new BackupError('The database is not a Posts database');
    }
    await runPostgresTool('pg_dump', [
      '--format=custom',
      `--snapshot=${rows[0].id}`,
      `--file=${file}`,
      `--dbname=${url}`,
    ]);
    return { file, migrations, media };
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    await client.end();
  }
}

/** Copies each listed file; a file gone since the snapshot (its upload deleted meanwhile) is reported, not fatal. */
async function copyMedia(
  tar: TarWriter,
  files: MediaFile[],
  read: (key: string) => NodeJS.ReadableStream,
): Promise<string[]> {
  const missing: string[] = [];
  for (const { key } of files) {
    let bytes: Buffer;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of read(key) as AsyncIterable<Buffer>) chunks.push(chunk);
      bytes = Buffer.concat(chunks);
    } catch {
      missing.push(key);
      continue;
    }
    await tar.add(MEDIA_PREFIX + key, bytes);
  }
  return missing;
}
