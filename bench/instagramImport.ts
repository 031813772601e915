/**
 * Instagram imports' figures (issue 76): photos per second through the image pipeline, and how far
 * the import raises the peak RSS, for an archive of `--photos` phone-sized photos (500 by default)
 * in Instagram's layout, on a temporary SQLite database (`tempApp.ts`). The archive is written to disk first (a
 * photo at a time) and handed to the service as the upload route leaves it, so the figures are the
 * scan's and the job's, the upload being a stream to a file.
 *   MALLOC_ARENA_MAX=2 npm run bench:instagram -- --photos 500 [--width 2000]
 */
import { createWriteStream, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { ZipFile } from 'yazl';
import { deferredWritesSettled } from '../server/media/service';
import { tempApp } from './tempApp';
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
  const bench = await tempApp();
  try {
    const { config, app } = bench;
    mkdirSync(config.instagramImport.dir, { recursive: true });
    const file = path.join(config.instagramImport.dir, 'bench.zip');
    const postCount = await writeArchive(file);
    const archiveMb = statSync(file).size / 1024 / 1024;

    const me = await bench.signUp('bencher');
    const viewer = { id: me.id, username: 'bencher', role: 'member' as const, sessionId: '' };
    // Loads libvips and its codecs, as a server that has served an upload has.
    await app.ctx.media.upload(me.id, 'post', await photo(9999));
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
  } finally {
    await bench.close();
  }
}

await main();
