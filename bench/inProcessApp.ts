/**
 * What the in-process benches (requestFloor, timelines-cpu, writes-cpu) share: their flags, and the
 * app as `npm start` builds it (no Next.js) on `DATA_DIR`, rate limits lifted, measured only once
 * the home feed's index has loaded in the background.
 */
import type { FastifyInstance } from 'fastify';
import { SEED_PASSWORD } from '../scripts/seed/write';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { mediaStorageFor } from '../server/media/storageFor';
import { writerPicture } from './community';

/** `--name value` from the command line, or `fallback`. */
export const flag = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

/** This thread's CPU time in µs: a busy machine stretches wall time, hardly this. */
export const threadCpu = () => {
  const { user, system } = (process as unknown as { threadCpuUsage(): NodeJS.CpuUsage }).threadCpuUsage();
  return user + system;
};

const unlimited = '1000000000';

export async function inProcessApp() {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    JWT_SECRET: process.env.JWT_SECRET ?? 'bench-secret-'.padEnd(48, 'x'),
    RATE_LIMIT_AUTH_PER_IP: unlimited,
    RATE_LIMIT_AUTH_PER_ACCOUNT: unlimited,
    RATE_LIMIT_WRITES_PER_USER: unlimited,
    RATE_LIMIT_UPLOADS_PER_USER: unlimited,
    MAX_EVENT_LOOP_DELAY_MS: '0',
  });
  const db = openDatabase(config.databaseUrl, { backgroundCheckpoints: true });
  await migrateToLatest(db.kysely);
  const storage = mediaStorageFor(config);
  const app = await buildApp({ config, db, storage, logger: false });
  await app.ready();
  for (;;) {
    const { feedIndex } = (await app.inject({ url: '/api/instance/health' })).json() as { feedIndex: string };
    if (feedIndex !== 'idle' && feedIndex !== 'loading') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { config, db, storage, app };
}

/** A seeded account signed in: what a browser sends back, every cookie the sign-in set. */
export async function signedInCookie(app: FastifyInstance, email: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: SEED_PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** The writer's picture uploaded as a post image (multipart, built by hand for inject): its URL. */
export async function uploadedWriterImage(app: FastifyInstance, cookie: string): Promise<string> {
  const boundary = '----in-process-bench';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="upload_preset"\r\n\r\npost\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    await writerPicture(),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const upload = await app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  if (upload.statusCode !== 201) throw new Error(`upload: ${upload.statusCode} ${upload.body}`);
  return (upload.json() as { secure_url: string }).secure_url;
}
