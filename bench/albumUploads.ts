/**
 * Albums' upload figures (issue 71, items 6 and the upload row), each scenario in a fresh process
 * on a temporary SQLite database, the app through inject (the server's services and thread pool):
 * - how far a post's uploads raise the peak RSS: one phone photo, then 20 sent at once by one
 *   person the way a naive client does (every file at once; a 429 is sent again once one of its
 *   own uploads has answered), posted as one album;
 * - how long another person's one photo takes while that album is queued, and alone;
 * - the composer's way (three uploads at a time) of posting 10 photos, against 1, wall time.
 * The photos are made before the baseline is read, so making them does not set the peak.
 *   MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 npx tsx bench/albumUploads.ts [--photos 20]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { localStorage } from '../server/media/localStorage';
import { deferredWritesSettled } from '../server/media/service';
import { multipartBody } from '../tests/server/multipart';

type Scenario = 'one' | 'album-at-once' | 'composer-1' | 'composer-10';

interface ScenarioResult {
  scenario: Scenario;
  photos: number;
  baselineMb: number;
  raisedMb: number;
  /** Until the post was created, from the first upload sent. */
  seconds: number;
  /** Uploads answered 429 and sent again. */
  resent: number;
  /** Another person's one photo: answered while the album was queued, and alone afterwards. */
  otherDuringMs?: number;
  otherAloneMs?: number;
}

const { values } = parseArgs({
  options: { scenario: { type: 'string' }, photos: { type: 'string', default: '20' }, dir: { type: 'string' } },
});

const peakMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

/**
 * A 12-megapixel JPEG of noise of a few MB, as a phone photo is, `seed` making each its own;
 * made by the parent into a folder (making one raises a process's peak more than uploading it).
 */
const phonePhoto = (seed: number) =>
  sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: '#6a8',
      noise: { type: 'gaussian', mean: 120, sigma: 20 + (seed % 5) },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
const photoFile = (dir: string, seed: number) => path.join(dir, `photo-${seed}.jpg`);

async function benchApp(maxPostImages: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'posts-albums-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-'.padEnd(48, 'x'),
    LOG_LEVEL: 'silent',
    MAX_POST_IMAGES: String(maxPostImages),
    RATE_LIMIT_UPLOADS_PER_USER: '100000',
    RATE_LIMIT_WRITES_PER_USER: '100000',
    MAX_EVENT_LOOP_DELAY_MS: '0',
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
  const signUp = async (username: string) => {
    const credentials = { username, email: `${username}@example.com`, password: 'correct horse battery' };
    await app.inject({ method: 'POST', url: '/api/auth/signup', payload: credentials });
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: credentials });
    return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  };
  const upload = (cookie: string, data: Buffer) => {
    const { payload, headers } = multipartBody([
      { name: 'upload_preset', value: 'post' },
      { name: 'file', filename: 'photo.jpg', contentType: 'image/jpeg', data },
    ]);
    return app.inject({ method: 'POST', url: '/api/uploads', payload, headers: { ...headers, cookie } });
  };
  const post = async (cookie: string, urls: string[]) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/posts/create',
      headers: { cookie },
      payload: { message: 'A trip', tags: ['trip'], images: urls.map((image) => ({ image })) },
    });
    if (res.statusCode !== 201) throw new Error(`post: ${res.statusCode} ${res.body}`);
  };
  const close = async () => {
    await deferredWritesSettled();
    await app.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { signUp, upload, post, close };
}

/** Sends `files` `atOnce` at a time, each again after a 429 once another has answered; their URLs in order. */
async function uploadAll(
  bench: Awaited<ReturnType<typeof benchApp>>,
  cookie: string,
  files: Buffer[],
  atOnce: number,
  onQueued?: () => void,
): Promise<{ urls: string[]; resent: number }> {
  const urls: string[] = new Array(files.length);
  let next = 0;
  let resent = 0;
  let answered = Promise.resolve();
  let signalAnswer = () => {};
  const renewAnswered = () => {
    answered = new Promise<void>((resolve) => (signalAnswer = resolve));
  };
  renewAnswered();
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      for (;;) {
        const res = await bench.upload(cookie, files[i]);
        if (res.statusCode === 201) {
          urls[i] = (res.json() as { secure_url: string }).secure_url;
          signalAnswer();
          renewAnswered();
          break;
        }
        if (res.statusCode !== 429) throw new Error(`upload ${i}: ${res.statusCode} ${res.body}`);
        resent++;
        onQueued?.();
        // Its other uploads may all have answered already: then a short wait, as a client's retry.
        await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 250))]);
      }
    }
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
  return { urls, resent };
}

async function runScenario(scenario: Scenario, photos: number, dir: string): Promise<ScenarioResult> {
  const count = scenario === 'one' || scenario === 'composer-1' ? 1 : scenario === 'composer-10' ? 10 : photos;
  const bench = await benchApp(Math.max(count, 1));
  const author = await bench.signUp('author');
  const other = await bench.signUp('other');
  const files: Buffer[] = [];
  for (let i = 0; i < count; i++) files.push(readFileSync(photoFile(dir, i)));
  const otherPhoto = readFileSync(photoFile(dir, photos));
  // Loads libvips and its codecs, as a server that has served an upload has.
  await bench.upload(
    other,
    await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3a8' } })
      .jpeg()
      .toBuffer(),
  );
  await deferredWritesSettled();
  const baselineMb = peakMb();

  const started = performance.now();
  let otherDuring: Promise<number> | undefined;
  const timedOther = async () => {
    const t = performance.now();
    const res = await bench.upload(other, otherPhoto);
    if (res.statusCode !== 201) throw new Error(`other's upload: ${res.statusCode}`);
    return performance.now() - t;
  };
  const atOnce = scenario === 'album-at-once' ? count : 3;
  // The other person uploads once the album has filled its queue (its first 429).
  const { urls, resent } = await uploadAll(bench, author, files, atOnce, () => {
    otherDuring ??= timedOther();
  });
  await bench.post(author, urls);
  const seconds = (performance.now() - started) / 1000;
  const otherDuringMs = otherDuring ? await otherDuring : undefined;
  await deferredWritesSettled();
  const raisedMb = peakMb() - baselineMb;
  const otherAloneMs = otherDuringMs === undefined ? undefined : await timedOther();
  await bench.close();
  return {
    scenario,
    photos: count,
    baselineMb: Math.round(baselineMb),
    raisedMb: Math.round(raisedMb),
    seconds: Math.round(seconds * 10) / 10,
    resent,
    otherDuringMs: otherDuringMs && Math.round(otherDuringMs),
    otherAloneMs: otherAloneMs && Math.round(otherAloneMs),
  };
}

if (values.scenario) {
  console.log(JSON.stringify(await runScenario(values.scenario as Scenario, Number(values.photos), values.dir!)));
  process.exit(0);
}

const dir = mkdtempSync(path.join(tmpdir(), 'posts-album-photos-'));
let bytes = 0;
for (let i = 0; i <= Number(values.photos); i++) {
  const photo = await phonePhoto(i);
  writeFileSync(photoFile(dir, i), photo);
  bytes += photo.length;
}
console.log(
  `${Number(values.photos) + 1} photos of 4,000 x 3,000, ${(bytes / (Number(values.photos) + 1) / 1e6).toFixed(1)} MB on average`,
);

console.log(
  "scenario (each in a fresh process)    | photos | peak RSS raised, MB | s to posted | 429s resent | another person's photo, ms (during / alone)",
);
for (const scenario of ['one', 'album-at-once', 'composer-1', 'composer-10'] as Scenario[]) {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--scenario', scenario, '--photos', values.photos!, '--dir', dir],
    {
      encoding: 'utf8',
      env: { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
    },
  );
  const r = JSON.parse(out.trim().split('\n').pop()!) as ScenarioResult;
  const other = r.otherDuringMs === undefined ? '' : `${r.otherDuringMs} / ${r.otherAloneMs}`;
  console.log(
    `${scenario.padEnd(38)} | ${String(r.photos).padStart(6)} | ${String(r.raisedMb).padStart(19)} | ${String(r.seconds).padStart(11)} | ${String(r.resent).padStart(11)} | ${other}`,
  );
}
rmSync(dir, { recursive: true, force: true });
