/**
 * Figures for the hardening work (docs/benchmarks.md#image-memory-bounds-2026-11-23):
 * - sign-in latency while 8 uploads of a 7,000 × 7,000 PNG run (the app on a temporary SQLite
 *   database, through inject: the same services and thread pool as the server);
 * - how far each probe shape raises a fresh process's peak RSS (tests/server/memory/peakRss.ts).
 *   npm run bench:hardening
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { localStorage } from '../server/media/localStorage';
import { deferredWritesSettled } from '../server/media/service';
import type { PeakRssRequest, PeakRssResult } from '../tests/server/memory/peakRss';
import { zeroPng } from '../tests/server/memory/pngShapes';
import { multipartBody } from '../tests/server/multipart';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function signInDuringUploads(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'posts-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-'.padEnd(48, 'x'),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_AUTH_PER_IP: '100000',
    RATE_LIMIT_AUTH_PER_ACCOUNT: '100000',
    RATE_LIMIT_UPLOADS_PER_USER: '100000',
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
  const credentials = { username: 'bench', email: 'bench@example.com', password: 'correct horse battery' };
  await app.inject({ method: 'POST', url: '/api/auth/signup', payload: credentials });
  const login = () => app.inject({ method: 'POST', url: '/api/auth/login', payload: credentials });
  const cookie = (await login()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const timedLogin = async () => {
    const started = performance.now();
    const res = await login();
    if (res.statusCode !== 200) throw new Error(`login answered ${res.statusCode}`);
    return performance.now() - started;
  };

  const idle: number[] = [];
  for (let i = 0; i < 10; i++) idle.push(await timedLogin());

  const { payload, headers } = multipartBody([
    { name: 'upload_preset', value: 'post' },
    {
      name: 'file',
      filename: 'big.png',
      contentType: 'image/png',
      data: await zeroPng({ width: 7_000, height: 7_000, depth: 8, colorType: 2 }),
    },
  ]);
  let running = true;
  const uploads = Promise.all(
    Array.from({ length: 8 }, () =>
      app.inject({ method: 'POST', url: '/api/uploads', payload, headers: { ...headers, cookie } }),
    ),
  ).then(async (responses) => {
    await deferredWritesSettled();
    running = false;
    return responses.map((r) => r.statusCode);
  });
  const busy: number[] = [];
  while (running) busy.push(await timedLogin());
  const statuses = await uploads;

  console.log('sign-in, ms        | runs | median | max');
  console.log(`idle               | ${idle.length} | ${median(idle).toFixed(0)} | ${Math.max(...idle).toFixed(0)}`);
  console.log(
    `during 8 uploads   | ${busy.length} | ${median(busy).toFixed(0)} | ${Math.max(...busy).toFixed(0)}   (uploads: ${statuses.join(' ')})`,
  );
  await app.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}

function peakRssRows(): void {
  const script = path.join(import.meta.dirname, '../tests/server/memory/peakRss.ts');
  const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);
  const rows: [string, PeakRssRequest][] = [
    [
      '10M x 5 16-bit RGBA, post',
      { preset: 'post', shapes: [{ width: 10_000_000, height: 5, depth: 16, colorType: 6 }] },
    ],
    ['10M x 5 8-bit RGB, post', { preset: 'post', shapes: [{ width: 10_000_000, height: 5, depth: 8, colorType: 2 }] }],
    [
      '8 x 100,000 x 500, avatar',
      { preset: 'avatar', shapes: times(8, { width: 100_000, height: 500, depth: 8, colorType: 2 }) },
    ],
    [
      '8 x 12,000 x 4,166 RGBA, banner',
      { preset: 'banner', shapes: times(8, { width: 12_000, height: 4_166, depth: 8, colorType: 6 }) },
    ],
    [
      '8 x 16,000 x 3,125 RGB, banner',
      { preset: 'banner', shapes: times(8, { width: 16_000, height: 3_125, depth: 8, colorType: 2 }) },
    ],
    [
      '4 x 6,000 x 8,333 16-bit RGBA, post',
      { preset: 'post', shapes: times(4, { width: 6_000, height: 8_333, depth: 16, colorType: 6 }) },
    ],
    [
      '8 x 16,000 x 800 RGB, avatar',
      { preset: 'avatar', shapes: times(8, { width: 16_000, height: 800, depth: 8, colorType: 2 }) },
    ],
  ];
  console.log('\nshape (all at once)                  | peak RSS raised, MB | outcome');
  for (const [name, request] of rows) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', script, JSON.stringify(request)], {
      encoding: 'utf8',
      env: { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
    });
    const result = JSON.parse(out.trim().split('\n').pop()!) as PeakRssResult;
    console.log(
      `${name.padEnd(36)} | ${String(result.raisedMb).padStart(19)} | ${[...new Set(result.outcomes)].join(', ')}`,
    );
  }
}

await signInDuringUploads();
peakRssRows();
