/**
 * Image pipeline figures: the upload "post" preset (processImage: header checks, one decode to a
 * 1080px intermediate, WebP + JPEG/PNG at two sizes, thumbhash) against a bare sharp decode +
 * resize of the same bytes to the same 1080px box (raw pixels out, no encode). The ratio says
 * what the pipeline adds on top of the work any resizer must do.
 *   tsx bench/images.ts
 */
import sharp from 'sharp';
import { processImage } from '../server/media/pipeline';
import { makePicture } from '../scripts/seed/images';
import { Rng } from '../scripts/seed/random';

export interface ImageRow {
  name: string;
  bytes: number;
  pipelineMs: number;
  bareMs: number;
  ratio: number;
}

/** Median of `runs` timed calls after one warm-up. */
async function timeMedian(runs: number, work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * Test pictures with photo-like content: synthetic shapes plus grain, because flat SVG colours
 * compress unrealistically well and would flatter both the decoder and the encoders.
 */
async function testImage(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const picture = await makePicture(new Rng(width), { width, height, style: 'shapes', caption: `${width}×${height}` }, 'png');
  const grain = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 18 } } })
    .png().toBuffer();
  const mixed = sharp(picture).removeAlpha().composite([{ input: grain, blend: 'soft-light' }]);
  if (format === 'jpeg') return mixed.jpeg({ quality: 88 }).toBuffer();
  // Grain makes PNG incompressible; a 4 MP PNG must stay under the 4 MiB upload limit, so it
  // gets the grain on a quarter of the picture only (screenshot-like flat areas elsewhere).
  const flat = await sharp(picture).removeAlpha().png().toBuffer();
  const grainy = await sharp(await mixed.png().toBuffer()).extract({ left: 0, top: 0, width: Math.floor(width / 2), height: Math.floor(height / 2) }).png().toBuffer();
  return sharp(flat).composite([{ input: grainy, left: 0, top: 0 }]).png({ compressionLevel: 6 }).toBuffer();
}

const CASES = async () => [
    { name: '12 MP JPEG (4000×3000)', bytes: await testImage(4000, 3000, 'jpeg') },
  { name: '4 MP PNG (2309×1732)', bytes: await testImage(2309, 1732, 'png') },
];

export async function runImageBench(runs = 5): Promise<ImageRow[]> {
  const cases = await CASES();
  const rows: ImageRow[] = [];
  for (const { name, bytes } of cases) {
    const pipelineMs = await timeMedian(runs, () => processImage(bytes, 'post'));
    const bareMs = await timeMedian(runs, () => sharp(bytes).resize(1080, 2160, { fit: 'inside' }).raw().toBuffer());
    rows.push({ name, bytes: bytes.length, pipelineMs, bareMs, ratio: pipelineMs / bareMs });
  }
  return rows;
}

/**
 * Where the pipeline's time goes, one step at a time (each step alone, single-threaded calls in a
 * row, so the sum is more than the pipeline's wall time, which overlaps encodes): the evidence
 * for docs/benchmarks.md when the ratio target is missed, with the alternatives' costs.
 */
export async function imageBreakdown(runs = 5): Promise<void> {
  for (const { name, bytes } of await CASES()) {
    const meta = await sharp(bytes).metadata();
    const box = { width: 1080, height: 2160 };
    const intermediate = await sharp(bytes).autoOrient().resize(box.width, box.height, { fit: 'inside' }).tiff({ compression: 'none' }).toBuffer();
    const small = await sharp(intermediate).resize(540).tiff({ compression: 'none' }).toBuffer();
    const steps: [string, () => Promise<unknown>][] = [
      ['header (metadata)', () => sharp(bytes).metadata()],
      ['decode + resize → raw (the "bare" reference)', () => sharp(bytes).resize(box.width, box.height, { fit: 'inside' }).raw().toBuffer()],
      ['decode + orient + resize → TIFF intermediate', () => sharp(bytes).autoOrient().resize(box.width, box.height, { fit: 'inside' }).tiff({ compression: 'none' }).toBuffer()],
      ['stats (opacity check)', () => sharp(intermediate).stats()],
      ['WebP 1080 (q80, effort 4)', () => sharp(intermediate).webp({ quality: 80, effort: 4 }).toBuffer()],
      ['  alternative: WebP 1080 effort 2', () => sharp(intermediate).webp({ quality: 80, effort: 2 }).toBuffer()],
      [meta.format === 'png' ? 'PNG 1080 (level 6, adaptive)' : 'JPEG 1080 (q80, mozjpeg)', () => (meta.format === 'png'
        ? sharp(intermediate).png({ compressionLevel: 6, adaptiveFiltering: true }) : sharp(intermediate).jpeg({ quality: 80, mozjpeg: true })).toBuffer()],
      ['  alternative: JPEG 1080 q80 libjpeg-turbo', () => sharp(intermediate).jpeg({ quality: 80, optimiseCoding: true }).toBuffer()],
      ['WebP 540', () => sharp(small).webp({ quality: 80, effort: 4 }).toBuffer()],
      ['JPEG 540 (mozjpeg)', () => sharp(small).jpeg({ quality: 80, mozjpeg: true }).toBuffer()],
      ['thumbhash (100 px RGBA)', () => sharp(intermediate).resize(100, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer()],
    ];
    console.log(`${name}, ${(bytes.length / 1e6).toFixed(2)} MB:`);
    for (const [label, work] of steps) console.log(`  ${label.padEnd(46)} ${(await timeMedian(runs, work)).toFixed(0).padStart(5)} ms`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await runImageBench()) {
    console.log(`${row.name}: ${(row.bytes / 1e6).toFixed(2)} MB  pipeline ${row.pipelineMs.toFixed(0)} ms  bare ${row.bareMs.toFixed(0)} ms  ratio ${row.ratio.toFixed(2)}×`);
  }
  if (process.argv.includes('--breakdown')) await imageBreakdown();
}
