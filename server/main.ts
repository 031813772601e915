/**
 * Starts Posts: migrates the database, builds the Next.js pages when needed (`--build-if-needed`),
 * serves API and pages on one port, and shuts down gracefully on SIGTERM/SIGINT.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import next from 'next';
import { buildApp } from './app';
import { loadConfig, metricsEnabled } from './config';
import { openDatabase } from './db/database';
import { instanceOf } from './db/postgresWrites';
import { migrateToLatest } from './db/migrate';
import { openFileLimit } from './instance/fileLimit';
import { mediaStorageFor } from './media/storageFor';
import { renderBoundariesInPlace } from './pages/boundariesInPlace';
import { buildPages } from './pages/buildPages';

const root = path.resolve(import.meta.dirname, '..');
// Nothing here may phone home (and this machine's network is closed anyway).
process.env.NEXT_TELEMETRY_DISABLED ??= '1';

function buildPagesIfNeeded(): void {
  if (existsSync(path.join(root, '.next', 'BUILD_ID'))) return;
  console.log('No production build found: building the pages (once)...');
  if (!buildPages()) process.exit(1);
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.dev && process.argv.includes('--build-if-needed')) buildPagesIfNeeded();

  // The server's connection leaves SQLite's WAL checkpoints to a worker thread (db/backgroundCheckpoints.ts).
  const db = openDatabase(config.databaseUrl, {
    timed: metricsEnabled(config),
    backgroundCheckpoints: true,
    instance: instanceOf(config),
  });
  await migrateToLatest(db.kysely);

  renderBoundariesInPlace();
  const nextApp = next({ dev: config.dev, dir: root, hostname: config.host, port: config.port });
  await nextApp.prepare();
  const handle = nextApp.getRequestHandler();

  const storage = mediaStorageFor(config);
  const app = await buildApp({
    config,
    db,
    storage,
    pageHandler: (req, res) => handle(req, res),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: finishing in-flight requests`);
    // app.close() stops accepting, waits for in-flight requests, then runs onClose hooks.
    await app.close();
    await nextApp.close?.();
    storage.close?.();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  if (!config.publicOrigin)
    app.log.warn(
      `PUBLIC_URL is not set: answering only for loopback names and ${config.host} (other Host headers get 421). Set PUBLIC_URL to the address people use.`,
    );
  if (!config.smtpUrl)
    app.log.warn(
      'SMTP_URL is not set: mails (password resets, email verification) are written to this log with their links instead of being sent.',
    );
  const metricsAt = app.metricsAddress();
  if (metricsAt) {
    const host = metricsAt.family === 'IPv6' ? `[${metricsAt.address}]` : metricsAt.address;
    app.log.info(`Metrics at http://${host}:${metricsAt.port}/metrics`);
  }
  const fileLimit = openFileLimit();
  // The streams' cap is half of it (SSE_STREAMS_MAX): a low limit is worth seeing at start.
  if (fileLimit) app.log.info(`Open-file limit: ${fileLimit.soft} (hard ${fileLimit.hard})`);
  console.log(`Posts is running at http://${config.host}:${config.port}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
