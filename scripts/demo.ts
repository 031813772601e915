/**
 * `npm run demo`: adds a small, friendly dataset to the configured database for exploring the app
 * (scripts/demo/run.ts: a dozen people, about 100 posts, follows, comments and reactions). It goes
 * through the real API in-process (app.inject), so uploads are processed by the media pipeline and
 * every counter is kept by the app itself. Prints the accounts to sign in with. A run cut short is
 * finished by the next one; over a finished demo it changes nothing.
 */
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { mediaStorageFor } from '../server/media/storageFor';
import { runDemo } from './demo/run';

const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_AUTH_PER_IP: '1000',
  RATE_LIMIT_AUTH_PER_ACCOUNT: '1000',
  RATE_LIMIT_WRITES_PER_USER: '100000',
  RATE_LIMIT_UPLOADS_PER_USER: '100000',
  // The demo is this process's only client: shedding load would refuse its own next request.
  MAX_EVENT_LOOP_DELAY_MS: '0',
});
const db = openDatabase(config.databaseUrl);
await migrateToLatest(db.kysely);
const storage = mediaStorageFor(config);
const app = await buildApp({ config, db, storage, logger: false });

try {
  await runDemo({ inject: (request) => app.inject(request), db, siteUrl: config.siteUrl, say: console.log });
} catch (error) {
  console.error(`npm run demo: ${(error as Error).message}`);
  console.error('What was added is kept: run `npm run demo` again to finish the demo.');
  process.exitCode = 1;
} finally {
  await app.close();
  storage.close?.();
  await db.close();
}
