/**
 * Figures for the hardening work (docs/benchmarks/log/2026-11-23.md#image-memory-bounds-2026-11-23, #…-2026-11-26):
 * - sign-in latency while 8 uploads of a 7,000 × 7,000 PNG run (the app on a temporary SQLite
 *   database, through inject: the same services and thread pool as the server);
 * - how long another user's 64 × 64 PNG takes while one account sends 8 progressive CMYK JPEGs;
 * - how far each probe shape raises a fresh process's peak RSS (tests/server/memory/peakRss.ts);
 * - the same for images from elsewhere (issue 68): the 1 KB AVIF of 7,000 × 7,000 and a 225-byte
 *   SVG, each as an avatar in a fresh process (bench/remoteImageMemory.ts).
 *   npm run bench:hardening
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deferredWritesSettled } from '../server/media/service';
import { type JpegShape, zeroJpeg } from '../tests/server/memory/jpegShapes';
import type { PeakRssRequest, PeakRssResult } from '../tests/server/memory/peakRss';
import { type PngShape, zeroPng } from '../tests/server/memory/pngShapes';
import sharp from 'sharp';
import { median } from './median';
import { tempApp } from './tempApp';

/**
 * The app on a temporary SQLite database (through inject: the server's services and thread pool),
 * its per-minute limits lifted: the figures are latencies under load.
 */
const benchApp = () =>
  tempApp({
    RATE_LIMIT_AUTH_PER_IP: '100000',
    RATE_LIMIT_AUTH_PER_ACCOUNT: '100000',
    RATE_LIMIT_UPLOADS_PER_USER: '100000',
  });

async function signInDuringUploads(): Promise<void> {
  const bench = await benchApp();
  const { login } = await bench.signUp('bench');
  // Eight accounts, one upload each: one account may have only four queued.
  const uploaders = [];
  for (let i = 0; i < 8; i++) uploaders.push(await bench.signUp(`uploader${i}`));
  const timedLogin = async () => {
    const started = performance.now();
    const res = await login();
    if (res.statusCode !== 200) throw new Error(`login answered ${res.statusCode}`);
    return performance.now() - started;
  };

  const idle: number[] = [];
  for (let i = 0; i < 10; i++) idle.push(await timedLogin());

  const big = await zeroPng({ width: 7_000, height: 7_000, depth: 8, colorType: 2 });
  let running = true;
  const uploads = Promise.all(uploaders.map(({ cookie }) => bench.upload(cookie, big))).then(async (responses) => {
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
  await bench.close();
}

/** Another user's small upload while one account sends a batch of slow ones (issue 36). */
async function smallUploadDuringBatch(): Promise<void> {
  const bench = await benchApp();
  const batcher = await bench.signUp('batcher');
  const other = await bench.signUp('other');
  const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a8' } })
    .png()
    .toBuffer();
  const timedSmall = async () => {
    const started = performance.now();
    const res = await bench.upload(other.cookie, small);
    if (res.statusCode !== 201) throw new Error(`upload answered ${res.statusCode}`);
    return performance.now() - started;
  };
  const idle = await timedSmall();
  const cmyk = zeroJpeg({
    format: 'jpeg',
    width: 3_535,
    height: 3_535,
    space: 'cmyk',
    chroma: '4:4:4',
    progressive: true,
  });
  const batch = Array.from({ length: 8 }, () => bench.upload(batcher.cookie, cmyk));
  // The first answer (a 429: refusals do not wait) comes once the batch is queued.
  await Promise.race(batch);
  const during = await timedSmall();
  const statuses = (await Promise.all(batch)).map((r) => r.statusCode);
  console.log(
    `\nanother user's 64 x 64 PNG, ms: idle ${idle.toFixed(0)}, during 8 progressive CMYK 3,535² uploads from one account ${during.toFixed(0)}   (batch: ${statuses.join(' ')})`,
  );
  await bench.close();
}

function peakRssRows(): void {
  const script = path.join(import.meta.dirname, '../tests/server/memory/peakRss.ts');
  const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);
  const adam7 = (width: number, height: number, depth: 8 | 16, colorType: PngShape['colorType']): PngShape => ({
    width,
    height,
    depth,
    colorType,
    interlaced: true,
  });
  const jpeg =
    (progressive: boolean) =>
    (width: number, height: number, space: JpegShape['space'], chroma: JpegShape['chroma']): JpegShape => ({
      format: 'jpeg',
      width,
      height,
      space,
      chroma,
      progressive,
    });
  const progressive = jpeg(true);
  const baseline = jpeg(false);
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
    // Issue 36: inputs whose decoder holds the whole image (Adam7 PNG) or all its coefficients
    // (progressive JPEG); the first five are refused from the header, the rest are at the caps.
    ['7071² progressive CMYK JPEG, post', { preset: 'post', shapes: [progressive(7_071, 7_071, 'cmyk', '4:4:4')] }],
    ['7071² progressive 4:4:4 JPEG, post', { preset: 'post', shapes: [progressive(7_071, 7_071, 'srgb', '4:4:4')] }],
    ['6000² 16-bit RGBA Adam7, post', { preset: 'post', shapes: [adam7(6_000, 6_000, 16, 6)] }],
    ['12,000 x 4,166 16-bit GA Adam7, post', { preset: 'post', shapes: [adam7(12_000, 4_166, 16, 4)] }],
    ['7071² RGBA Adam7, post', { preset: 'post', shapes: [adam7(7_071, 7_071, 8, 6)] }],
    [
      '8 x 3,535² progressive CMYK, post',
      { preset: 'post', shapes: times(8, progressive(3_535, 3_535, 'cmyk', '4:4:4')) },
    ],
    ['4,082² progressive 4:4:4, post', { preset: 'post', shapes: [progressive(4_082, 4_082, 'srgb', '4:4:4')] }],
    ['5,773² progressive 4:2:0, post', { preset: 'post', shapes: [progressive(5_773, 5_773, 'srgb', '4:2:0')] }],
    ['4 x 6,000 x 1,333 16-bit RGBA Adam7, banner', { preset: 'banner', shapes: times(4, adam7(6_000, 1_333, 16, 6)) }],
    ['8 x 8,000 x 2,000 RGBA Adam7, banner', { preset: 'banner', shapes: times(8, adam7(8_000, 2_000, 8, 6)) }],
    ['4,618² RGB Adam7 (21.3 MP), post', { preset: 'post', shapes: [adam7(4_618, 4_618, 8, 2)] }],
    ['7071² baseline CMYK JPEG, post', { preset: 'post', shapes: [baseline(7_071, 7_071, 'cmyk', '4:4:4')] }],
  ];
  console.log(`\n${'shape (all at once)'.padEnd(44)} | peak RSS raised, MB | outcome`);
  for (const [name, request] of rows) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', script, JSON.stringify(request)], {
      encoding: 'utf8',
      env: { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
    });
    const result = JSON.parse(out.trim().split('\n').pop()!) as PeakRssResult;
    console.log(
      `${name.padEnd(44)} | ${String(result.raisedMb).padStart(19)} | ${[...new Set(result.outcomes)].join(', ')}`,
    );
  }
}

/** A blur over 7,000 × 7,000 pixels: librsvg once worked on it for minutes (now refused unread). */
const BLUR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="7000" height="7000"><filter id="f"><feGaussianBlur stdDeviation="999"/><feMorphology radius="500"/></filter><rect width="7000" height="7000" fill="#3a8" filter="url(#f)"/></svg>\n';

function remoteImageRows(): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'posts-remote-images-'));
  const svg = path.join(dir, 'blur.svg');
  writeFileSync(svg, BLUR_SVG);
  const files: [string, string][] = [
    ['AVIF 7,000 x 7,000 (1 KB), avatar', path.join(import.meta.dirname, '../tests/fixtures/remote/7000x7000.avif')],
    ['SVG blur 7,000 x 7,000 (225 B), avatar', svg],
  ];
  console.log(`\n${'image from elsewhere'.padEnd(44)} | peak RSS raised, MB | seconds | outcome`);
  for (const [name, file] of files) {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'remoteImageMemory.ts'), file, '--seconds', '120'],
      { encoding: 'utf8', env: { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } },
    );
    const result = JSON.parse(out.trim().split('\n').pop()!) as { raisedMb: number; seconds: number; outcome: string };
    console.log(
      `${name.padEnd(44)} | ${String(result.raisedMb).padStart(19)} | ${String(result.seconds).padStart(7)} | ${result.outcome}`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
}

await signInDuringUploads();
await smallUploadDuringBatch();
peakRssRows();
remoteImageRows();
