/**
 * Albums' upload figures (issue 71, item 6 and the upload row): the production server
 * (`scripts/start.sh`, pages built) started afresh for each scenario on a temporary SQLite
 * database, loaded over HTTP from this process, its peak RSS (VmHWM) read from /proc:
 * - how far a post's uploads raise the server's peak: one phone photo; 20 sent at once by one
 *   person, each refused one sent again after its `Retry-After`, then posted as one album;
 * - how long another person's one photo takes while an album is being uploaded, and alone;
 * - the composer's way (three uploads at a time) of posting 10 photos, against 1.
 *   npx tsx bench/albumUploads.ts [--photos 20]      (needs `npm run build` once)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { freePort } from '../scripts/cluster/processes';
import { memoryOf, startServer, stopServer, waitUntilUp } from './processes';

type Scenario = 'one photo' | 'album, every file at once' | 'composer, 1 photo' | 'composer, 10 photos';

const { values } = parseArgs({ options: { photos: { type: 'string', default: '20' } } });
const albumSize = Number(values.photos);
const root = path.resolve(import.meta.dirname, '..');

/** A 12-megapixel JPEG of noise, 3–4 MB as a phone photo is; `seed` makes each its own. */
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

async function startApp() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'posts-albums-'));
  const port = await freePort();
  const server = startServer(
    'app',
    'sh',
    [path.join(root, 'scripts', 'start.sh')],
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'silent',
      MAX_POST_IMAGES: String(albumSize),
      // The figures are the pipeline's and the queue's: the per-minute limits would only slow the run.
      RATE_LIMIT_UPLOADS_PER_USER: '100000',
      RATE_LIMIT_WRITES_PER_USER: '100000',
      RATE_LIMIT_AUTH_PER_IP: '100000',
      MAX_EVENT_LOOP_DELAY_MS: '0',
    },
    root,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(server, `${url}/api/instance`);
  const pid = server.child.pid!;
  const signUp = async (username: string) => {
    const credentials = { username, email: `${username}@example.com`, password: 'correct horse battery' };
    const json = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) };
    await (await fetch(`${url}/api/auth/signup`, json)).arrayBuffer();
    const login = await fetch(`${url}/api/auth/login`, json);
    await login.arrayBuffer();
    return login.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ');
  };
  const upload = async (cookie: string, data: Buffer) => {
    const form = new FormData();
    form.append('upload_preset', 'post');
    form.append('file', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), 'photo.jpg');
    const res = await fetch(`${url}/api/uploads`, { method: 'POST', headers: { cookie }, body: form });
    return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 1), body: await res.json() };
  };
  const post = async (cookie: string, urls: string[]) => {
    const res = await fetch(`${url}/api/posts/create`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'A trip', tags: ['trip'], images: urls.map((image) => ({ image })) }),
    });
    if (res.status !== 201) throw new Error(`post: ${res.status} ${await res.text()}`);
  };
  const peakMb = () => memoryOf(pid)!.peak / 2 ** 20;
  const stop = async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { signUp, upload, post, peakMb, stop };
}

type App = Awaited<ReturnType<typeof startApp>>;

/** Sends `files` `atOnce` at a time, a refused one again after its Retry-After; their URLs in order. */
async function uploadAll(app: App, cookie: string, files: Buffer[], atOnce: number, onAnswered: () => void) {
  const urls: string[] = new Array(files.length);
  let next = 0;
  let resent = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      for (;;) {
        const res = await app.upload(cookie, files[i]);
        if (res.status === 201) {
          urls[i] = (res.body as { secure_url: string }).secure_url;
          onAnswered();
          break;
        }
        if (res.status !== 429) throw new Error(`upload ${i}: ${res.status} ${JSON.stringify(res.body)}`);
        resent++;
        await new Promise((resolve) => setTimeout(resolve, res.retryAfter * 1000));
      }
    }
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
  return { urls, resent };
}

async function run(scenario: Scenario, photos: Buffer[], otherPhoto: Buffer) {
  const count = scenario === 'album, every file at once' ? albumSize : scenario === 'composer, 10 photos' ? 10 : 1;
  const app = await startApp();
  try {
    const author = await app.signUp('author');
    const other = await app.signUp('other');
    // Loads libvips and its codecs, as a server that has served an upload has.
    await app.upload(
      other,
      await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3a8' } })
        .jpeg()
        .toBuffer(),
    );
    const baselineMb = app.peakMb();
    const timedOther = async () => {
      const started = performance.now();
      const res = await app.upload(other, otherPhoto);
      if (res.status !== 201) throw new Error(`other's upload: ${res.status}`);
      return performance.now() - started;
    };
    let otherDuring: Promise<number> | undefined;
    const started = performance.now();
    // The other person sends one photo once the album's first photo has answered, the rest queued.
    const { urls, resent } = await uploadAll(
      app,
      author,
      photos.slice(0, count),
      scenario.startsWith('album') ? count : 3,
      () => {
        if (count > 1) otherDuring ??= timedOther();
      },
    );
    await app.post(author, urls);
    const seconds = (performance.now() - started) / 1000;
    const during = otherDuring && (await otherDuring);
    const raisedMb = app.peakMb() - baselineMb;
    const alone = during === undefined ? undefined : await timedOther();
    return { count, baselineMb, raisedMb, seconds, resent, during, alone };
  } finally {
    await app.stop();
  }
}

const photos: Buffer[] = [];
for (let i = 0; i < albumSize; i++) photos.push(await phonePhoto(i));
const otherPhoto = await phonePhoto(albumSize);
const averageMb = photos.reduce((sum, photo) => sum + photo.length, 0) / photos.length / 1e6;
console.log(`${albumSize} photos of 4,000 x 3,000, ${averageMb.toFixed(1)} MB on average`);
console.log(
  `${'scenario (a fresh server each)'.padEnd(28)} | photos | server peak RSS raised, MB | s to posted | 429s | another person's photo, ms (during / alone)`,
);
for (const scenario of [
  'one photo',
  'album, every file at once',
  'composer, 1 photo',
  'composer, 10 photos',
] as Scenario[]) {
  const r = await run(scenario, photos, otherPhoto);
  const other = r.during === undefined ? '' : `${Math.round(r.during)} / ${Math.round(r.alone!)}`;
  console.log(
    `${scenario.padEnd(28)} | ${String(r.count).padStart(6)} | ${String(Math.round(r.raisedMb)).padStart(26)} | ${r.seconds.toFixed(1).padStart(11)} | ${String(r.resent).padStart(4)} | ${other}`,
  );
}
