/**
 * How far one image fetched from elsewhere raises a fresh process's peak RSS (issue 68, item 34):
 * the file is served on loopback and taken through `storeRemoteImage` as an avatar, an inbox's
 * `Follow` would, with the pipeline behind it (the media service's storage and rows left out).
 * Past `--seconds` (default 120) the run stops and reports the peak so far: an SVG once rendered
 * for more than ten minutes. docs/benchmarks/log/2026-12-05.md#images-from-elsewhere-2026-12-05-22302250-utc-issue-68
 *   MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 npx tsx bench/remoteImageMemory.ts <file> [--preset avatar] [--seconds 120]
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import type { UploadPreset } from '../lib/limits';
import { storeRemoteImage } from '../server/federation/remoteImages';
import { processImage } from '../server/media/pipeline';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { preset: { type: 'string', default: 'avatar' }, seconds: { type: 'string', default: '120' } },
});
const file = readFileSync(positionals[0]);
const preset = values.preset as UploadPreset;

const peakMb = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

const server = createServer((req, res) => {
  // The type a server would claim; the bytes decide.
  res.writeHead(200, { 'content-type': 'image/png' }).end(req.url === '/warm' ? warm : file);
});
const warm = await sharp({ create: { width: 1200, height: 800, channels: 4, background: '#3a8' } })
  .png()
  .toBuffer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** The pipeline as the media service runs it, without storage; the source when it takes one. */
const media = {
  upload: async (owner: string, kind: UploadPreset, bytes: Buffer, source?: 'upload' | 'remote') => {
    const image = await (processImage as (...args: unknown[]) => ReturnType<typeof processImage>)(
      bytes,
      kind,
      owner,
      source,
    );
    return {
      secure_url: `/media/${kind}/${image.main.width}x${image.main.height}`,
      public_id: 'bench',
      width: image.main.width,
      height: image.main.height,
      format: image.main.format,
      bytes: image.main.data.length,
      thumbhash: image.thumbhash,
    };
  },
};

// Loads libvips and its codecs, as a server that has stored an image has.
await storeRemoteImage(media, 'warm', preset, `${base}/warm`, true);
const baselineMb = peakMb();
const started = performance.now();
const report = (outcome: string) => {
  console.log(
    JSON.stringify({
      bytes: file.length,
      baselineMb: Math.round(baselineMb),
      raisedMb: Math.round(peakMb() - baselineMb),
      seconds: Math.round((performance.now() - started) / 100) / 10,
      outcome,
    }),
  );
  process.exit(0);
};
setTimeout(() => report(`still working after ${values.seconds} s`), Number(values.seconds) * 1000);
const stored = await storeRemoteImage(media, 'someone', preset, `${base}/image`, true);
report(stored ? `stored ${stored.url}` : 'refused');
