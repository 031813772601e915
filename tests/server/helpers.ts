/** Builds an app on a fresh real database for each test file, plus signed-in users. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { buildApp, type PageHandler } from '../../server/app';
import type { InvalidationTable } from '../../server/invalidation/table';
import type { RedisBusOptions } from '../../server/instance/bus';
import { type Config, loadConfig, metricsEnabled } from '../../server/config';
import { type Db, openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { instanceOf } from '../../server/db/postgresWrites';
import { mediaStorageFor } from '../../server/media/storageFor';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** A new empty database for this run's kind: a SQLite file in `dataDir`, or a new PostgreSQL database. */
export async function freshDatabaseUrl(dataDir: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres')
    return { url: `sqlite:${path.join(dataDir, 'test.db')}`, drop: async () => {} };
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `posts_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      // The app's pool may still be closing its connections: wait for them rather than kill them.
      for (let attempt = 0; ; attempt += 1) {
        try {
          await client.query(`DROP DATABASE IF EXISTS ${name}`);
          break;
        } catch (error) {
          if (attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await client.end();
    },
  };
}

/**
 * `read` again until `done` holds, at most 20 s, answering the last read: bounded well below the
 * caches' minute in the tests that keep them that long, so a change only a cache's time would
 * bring fails instead of waiting for it.
 */
export async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const value = await read();
    if (done(value) || attempt >= 200) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The time test apps check two-factor codes at: the middle of a 30-second step. On the wall clock a
 * code made in one step and checked two steps on would fail, and a slow machine can take that long.
 */
const TOTP_STEP_MS = 30_000;
export const TOTP_AT = Math.floor(Date.now() / TOTP_STEP_MS) * TOTP_STEP_MS + TOTP_STEP_MS / 2;

/** A test app's two-factor code for the step `steps` away from `TOTP_AT`. */
export const totpCode = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: TOTP_AT + steps * TOTP_STEP_MS });

/**
 * `pageHandler` stands in for Next.js where a test needs the page routes (`pagesDir`: its
 * prerendered pages); `sameDatabaseAs` makes a second instance on another app's database;
 * `invalidation` replaces what each event makes the caches forget (tests/server/invalidationTable.test.ts);
 * `at` starts it on a folder and database made beforehand (a restored backup), removed by `close`.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    pageHandler?: PageHandler;
    pagesDir?: string;
    /** The app's log lines go here (at `LOG_LEVEL`, `silent` unless `env` says otherwise). */
    logStream?: NodeJS.WritableStream;
    sameDatabaseAs?: TestApp;
    invalidation?: InvalidationTable;
    /** Waits before a failed Web Push's retries (webPush.test.ts shortens them). */
    pushRetryDelaysMs?: number[];
    /** Drops, delays, duplicates or reorders what the instance's bus hears from Redis (churn.test.ts). */
    busFaults?: RedisBusOptions['faults'];
    at?: { dataDir: string; database: { url: string; drop: () => Promise<void> } };
  } = {},
): Promise<TestApp> {
  const { sameDatabaseAs, at, ...buildOptions } = options;
  const dataDir = at?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'posts-test-'));
  const database =
    at?.database ??
    (sameDatabaseAs
      ? { url: sameDatabaseAs.config.databaseUrl, drop: async () => {} }
      : await freshDatabaseUrl(dataDir));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    JWT_SECRET: 'test-secret-'.padEnd(48, 'x'),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_AUTH_PER_IP: '1000',
    RATE_LIMIT_AUTH_PER_ACCOUNT: '1000',
    RATE_LIMIT_UPLOADS_PER_USER: '1000',
    RATE_LIMIT_WRITES_PER_USER: '1000',
    RATE_LIMIT_MAILS_PER_ADDRESS: '1000',
    // A busy machine (CI beside other work) must not turn test requests into 503s: shedding is production's.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    // Tests write through one instance or a tool and read through another at once: each request
    // asks SQLite (the interval itself: outsideWrites.test.ts).
    OUTSIDE_WRITES_CHECK_MS: '0',
    // Apps of one test share a process: each its own name, so that PostgreSQL tells each of the others' writes.
    INSTANCE_ID: `test-${randomBytes(4).toString('hex')}`,
    ...env,
  });
  const db = openDatabase(config.databaseUrl, {
    timed: metricsEnabled(config),
    instance: instanceOf(config),
  });
  await migrateToLatest(db.kysely);
  // The local disk under dataDir, or the bucket when `env` carries the S3 variables (s3Storage.test.ts).
  const storage = mediaStorageFor(config);
  const app = await buildApp({
    config,
    db,
    storage,
    logger: false,
    totpClock: () => TOTP_AT,
    // No build of the pages unless a test gives one: a checkout's own `.next` must not change what tests see.
    pagesDir: path.join(dataDir, 'no-build'),
    ...buildOptions,
  });
  await app.ready();
  return {
    app,
    db,
    config,
    dataDir,
    async close() {
      await app.close();
      storage.close?.();
      await db.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Cookie header value from a response's Set-Cookie headers. */
export function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  return Object.fromEntries(response.cookies.map((c) => [c.name, c.value]));
}

export const cookieHeader = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

let counter = 0;
export interface SignedInUser {
  id: string;
  username: string;
  email: string;
  password: string;
  cookies: Record<string, string>;
  /** Headers for inject(): the session cookie. */
  headers: { cookie: string };
}

/** Signs up a new user (unique name) and signs in. */
export async function signIn(
  app: FastifyInstance,
  overrides: { username?: string; password?: string } = {},
): Promise<SignedInUser> {
  counter += 1;
  const username = overrides.username ?? `user${counter}_${randomBytes(3).toString('hex')}`;
  const email = `${username.toLowerCase()}@example.com`;
  const password = overrides.password ?? 'correct horse battery';
  const signup = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { username, email, password } });
  if (signup.statusCode !== 201) throw new Error(`signup failed: ${signup.body}`);
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const cookies = cookiesOf(login);
  const me = await app.inject({
    method: 'GET',
    url: '/api/auth/getLoggedUser',
    headers: { cookie: cookieHeader(cookies) },
  });
  return { id: me.json()._id, username, email, password, cookies, headers: { cookie: cookieHeader(cookies) } };
}

/** A hash of `password` made with the argon2id setting used before 2026-11-23 (19 MiB, 2 iterations). */
export const hashWithEarlierSetting = (password: string) =>
  hash(password, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });

/** Makes the user an admin as `npm run admin -- grant` does: the row, then the event the instances hear. */
export async function makeAdmin(t: TestApp, user: SignedInUser): Promise<void> {
  await t.db.kysely.updateTable('users').set({ role: 'admin' }).where('id', '=', user.id).execute();
  t.app.ctx.events.publish({ type: 'UserRoleChanged', userId: user.id });
}

/**
 * A function that resolves once `to` has heard every bus message `from` published before it was
 * called, or started its caches over for one it missed (`Bus.caughtUp`, what a reader's version
 * waits for): a lost message is found by `from`'s next heartbeat at the latest. No waiting on the clock.
 */
export async function busSettler(from: TestApp, to: TestApp): Promise<() => Promise<void>> {
  await to.app.ctx.bus.ready();
  return async () => {
    const { id, seq } = from.app.ctx.bus.position();
    // False past the bound (nothing heard yet): asked again until it is.
    while ((await to.app.ctx.bus.caughtUp(id, seq)) !== true);
  };
}
