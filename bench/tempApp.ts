/**
 * The app built in this process on a temporary SQLite database and media folder, for the benches
 * that drive its services or routes directly (`hardening.ts`, `instagramImport.ts`): seeded with
 * nothing, removed on `close`. The load shedding is off: a bench measures the work, not the 503s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { localStorage } from '../server/media/localStorage';
import { deferredWritesSettled } from '../server/media/service';
import { multipartBody } from '../tests/server/multipart';

const PASSWORD = 'correct horse battery';

export async function tempApp(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'posts-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-'.padEnd(48, 'x'),
    LOG_LEVEL: 'silent',
    MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const db = openDatabase(config.databaseUrl);
  await migrateToLatest(db.kysely);
  const app = await buildApp({
    config,
    db,
    storage: localStorage(config.mediaDir, config.mediaBaseUrl),
    logger: false,
  });
  await app.ready();

  /** A new account; its sign-in, its session's cookie and its id. */
  const signUp = async (username: string) => {
    const credentials = { username, email: `${username}@example.com`, password: PASSWORD };
    await app.inject({ method: 'POST', url: '/api/auth/signup', payload: credentials });
    const login = () => app.inject({ method: 'POST', url: '/api/auth/login', payload: credentials });
    const cookie = (await login()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const { id } = await db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    return { id, login, cookie };
  };
  const upload = (cookie: string, data: Buffer, preset = 'post') => {
    const { payload, headers } = multipartBody([
      { name: 'upload_preset', value: preset },
      { name: 'file', filename: 'image', contentType: 'application/octet-stream', data },
    ]);
    return app.inject({ method: 'POST', url: '/api/uploads', payload, headers: { ...headers, cookie } });
  };
  const close = async () => {
    await deferredWritesSettled();
    await app.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { config, db, app, signUp, upload, close };
}
