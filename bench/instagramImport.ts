/**
 * Instagram imports' figures (issue 76): photos per second through the image pipeline, and how far
 * the import raises the peak RSS, for an archive of `--photos` phone-sized photos (500 by default)
 * in Instagram's layout, on a temporary SQLite database. The archive is written to disk first (a
 * photo at a time) and handed to the service as the upload route leaves it, so the figures are the
 * scan's and the job's, the upload being a stream to a file.
 *   MALLOC_ARENA_MAX=2 npm run bench:instagram -- --photos 500 [--width 2000]
 */
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { ZipFile } from 'yazl';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { localStorage } from '../server/media/localStorage';
import { deferredWritesSettled } from '../server/media/service';
import { instagramJson, postsJson } from '../tests/server/instagramArchive';

const { values } = parseArgs({
  options: { photos: { type: 'string', default: '500' }, width: { type: 'string', default: '2000' } },
});
const photos = Number(values.photos);
const width = Number(values.width);

const peakMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

/** A noisy JPEG as a phone photo is (a few hundred KB at 2000 px), `seed` making each its own. */
const photo = (seed: number) =>
  sharp({
    create: {
      width,
      height: Math.round((width * 3) / 4),
      channels: 3,
      background: '#6a8',
      noise: { type: 'gaussian', mean: 120, sigma: 10 + (seed % 7) },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();

/** Posts of one photo, every tenth a carousel of three, written to `file` a photo at a time. */
async function writeArchive(file: string): Promise<number> {
  const posts = [];
  for (let i = 0, at = 0; at < photos; i++) {
    const n = i % 10 === 9 ? Math.min(3, photos - at) : 1;
    posts.push({
      timestamp: 1_500_000_000 + i * 86_400,
      caption: `Photo ${i} #bench`,
      photos: Array.from({ length: n }, (_, k) => `b/${at + k}.jpg`),
    });
    at += n;
  }
  const zip = new ZipFile();
  const out = zip.outputStream.pipe(createWriteStream(file));
  zip.addBuffer(Buffer.from(instagramJson(postsJson(posts))), 'your_instagram_activity/media/posts_1.json');
  for (let i = 0; i < photos; i++) {
    zip.addBuffer(await photo(i), `media/posts/b/${i}.jpg`, { compress: false });
    // Let the zip write what it holds before the next photo is made.
    await new Promise((resolve) => setImmediate(resolve));
  }
  zip.end();
  await once(out, 'finish');
  return posts.length;
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'posts-ig-bench-'));
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'bench-secret-'.padEnd(48, 'x'),
      LOG_LEVEL: 'silent',
      MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    mkdirSync(config.instagramImport.dir, { recursive: true });
    const file = path.join(config.instagramImport.dir, 'bench.zip');
    const postCount = await writeArchive(file);
    const archiveMb = statSync(file).size / 1024 / 1024;

    const db = openDatabase(config.databaseUrl);
    await migrateToLatest(db.kysely);
    const app = await buildApp({
      config,
      db,
      storage: localStorage(config.mediaDir, config.mediaBaseUrl),
      logger: false,
    });
    await app.ready();
    const credentials = { username: 'bencher', email: 'bencher@example.com', password: 'correct horse battery' };
    await app.inject({ method: 'POST', url: '/api/auth/signup', payload: credentials });
    const row = await db.kysely
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'bencher')
      .executeTakeFirstOrThrow();
    const viewer = { id: row.id, username: 'bencher', role: 'member' as const, sessionId: '' };
    // Loads libvips and its codecs, as a server that has served an upload has.
    await app.ctx.media.upload(row.id, 'post', await photo(9999));
    await deferredWritesSettled();
    const baselineMb = peakMb();

    const started = performance.now();
    const found = await app.ctx.instagramImports.fromArchive(viewer, 'bench.zip');
    const scanned = performance.now();
    await app.ctx.instagramImports.start(
      viewer,
      found.id,
      found.posts.map((p) => p.position),
    );
    let job = await app.ctx.instagramImports.progress(viewer, found.id);
    while (job.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = await app.ctx.instagramImports.progress(viewer, found.id);
    }
    await deferredWritesSettled();
    const seconds = (performance.now() - started) / 1000;
    const raisedMb = peakMb() - baselineMb;
    console.log(
      JSON.stringify(
        {
          photos,
          posts: postCount,
          archiveMb: Math.round(archiveMb),
          imported: job.done,
          failed: job.failed,
          scanSeconds: Math.round((scanned - started) / 100) / 10,
          seconds: Math.round(seconds * 10) / 10,
          photosPerSecond: Math.round((photos / seconds) * 10) / 10,
          baselineMb: Math.round(baselineMb),
          peakRaisedMb: Math.round(raisedMb),
        },
        null,
        2,
      ),
    );
    await app.close();
    await db.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
