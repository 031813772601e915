/**
 * Image pipeline figures: the upload "post" preset against a bare sharp decode + resize of the
 * same bytes to the same 1080px box (raw pixels out, no encode), calls alternating.
 * - pipeline ms: until the upload would answer, i.e. `stageImage` has checked the header, decoded
 *   once to 1080px pixels and encoded the main JPEG/PNG and the thumbhash (storing that one file
 *   and the row come after, not timed here). The ratio is this ÷ bare: what the upload adds on top
 *   of the work any resizer must do before it can answer.
 * - all variants ms: the same call continued with `rest()` (the 1080px WebP, the 540px WebP and
 *   fallback scaled from the decoded pixels), which the server runs right after answering.
 *   tsx bench/images.ts [--breakdown]
 */
import sharp, { type Sharp } from 'sharp';
import { stageImage } from '../server/media/pipeline';
import { makePicture } from '../scripts/seed/images';
import { Rng } from '../scripts/seed/random';
import { median } from './median';

export interface ImageRow {
  name: string;
  bytes: number;
  /** Median wall time until the upload would answer (main variant and thumbhash encoded). */
  pipelineMs: number;
  /** Median wall time until every variant is encoded (answer + the work done right after). */
  allVariantsMs: number;
  /** Median wall time of the bare decode + resize of the same bytes. */
  bareMs: number;
  /** pipelineMs / bareMs. */
  ratio: number;
  /** allVariantsMs / bareMs. */
  allVariantsRatio: number;
  /** CPU time per image, every variant (all threads of the process): the encodes run side by side on the cores. */
  pipelineCpuMs: number;
  bareCpuMs: number;
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
  return median(times);
}

interface Timing {
  wall: number;
  cpu: number;
  answer: number;
}

/** One timed call: wall and CPU (user + system, every thread) in ms; `answer` = wall until `mark()`. */
async function timeOnce(work: (mark: () => void) => Promise<unknown>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let answer = NaN;
  await work(() => {
    answer = performance.now() - started;
  });
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000, answer: Number.isNaN(answer) ? wall : answer };
}

/** Like the upload: stage (the answer), then the other variants right after. */
async function upload(bytes: Buffer, mark: () => void = () => {}): Promise<void> {
  const staged = await stageImage(bytes, 'post', 'bench');
  mark();
  await staged.rest();
}

/**
 * Test pictures with photo-like content: synthetic shapes plus grain, because flat SVG colours
 * compress unrealistically well and would flatter both the decoder and the encoders.
 */
async function testImage(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const picture = await makePicture(
    new Rng(width),
    { width, height, style: 'shapes', caption: `${width}×${height}` },
    'png',
  );
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 18 } },
  })
    .png()
    .toBuffer();
  const mixed = sharp(picture)
    .removeAlpha()
    .composite([{ input: grain, blend: 'soft-light' }]);
  if (format === 'jpeg') return mixed.jpeg({ quality: 88 }).toBuffer();
  // Grain makes PNG incompressible; a 4 MP PNG must stay under the 4 MiB upload limit, so it
  // gets the grain on a quarter of the picture only (screenshot-like flat areas elsewhere).
  const flat = await sharp(picture).removeAlpha().png().toBuffer();
  const grainy = await sharp(await mixed.png().toBuffer())
    .extract({ left: 0, top: 0, width: Math.floor(width / 2), height: Math.floor(height / 2) })
    .png()
    .toBuffer();
  // The composite leaves an (opaque) alpha channel: the pipeline's opacity check runs on it.
  return sharp(flat)
    .composite([{ input: grainy, left: 0, top: 0 }])
    .png({ compressionLevel: 6 })
    .toBuffer();
}

const CASES = async () => [
  { name: '12 MP JPEG (4000×3000)', bytes: await testImage(4000, 3000, 'jpeg') },
  { name: '4 MP PNG (2309×1732)', bytes: await testImage(2309, 1732, 'png') },
];

const bare = (bytes: Buffer) => sharp(bytes).resize(1080, 2160, { fit: 'inside' }).raw().toBuffer();

/**
 * Pipeline and bare reference alternate call by call (after one warm-up of each), so both see the
 * same machine: on shared cores a burst of other work then slows both, not just one of them.
 */
export async function runImageBench(runs = 15): Promise<ImageRow[]> {
  const rows: ImageRow[] = [];
  for (const { name, bytes } of await CASES()) {
    await upload(bytes);
    await bare(bytes);
    const pipeline: Timing[] = [];
    const reference: Timing[] = [];
    for (let i = 0; i < runs; i++) {
      pipeline.push(await timeOnce((mark) => upload(bytes, mark)));
      reference.push(await timeOnce(() => bare(bytes)));
    }
    const pipelineMs = median(pipeline.map((t) => t.answer));
    const allVariantsMs = median(pipeline.map((t) => t.wall));
    const bareMs = median(reference.map((t) => t.wall));
    rows.push({
      name,
      bytes: bytes.length,
      pipelineMs,
      allVariantsMs,
      bareMs,
      ratio: pipelineMs / bareMs,
      allVariantsRatio: allVariantsMs / bareMs,
      pipelineCpuMs: median(pipeline.map((t) => t.cpu)),
      bareCpuMs: median(reference.map((t) => t.cpu)),
    });
  }
  return rows;
}

/**
 * Where the pipeline's time goes, one step at a time (each step alone, calls in a row, so the sum
 * is more than the pipeline's wall time, which runs the encodes side by side on the libuv pool),
 * with the alternatives' costs and file sizes: the evidence for docs/benchmarks.md.
 */
export async function imageBreakdown(runs = 7): Promise<void> {
  for (const { name, bytes } of await CASES()) {
    const box = { width: 1080, height: 2160 };
    const decode = () =>
      sharp(bytes, { failOn: 'error' }).autoOrient().resize(box.width, box.height, { fit: 'inside' });
    const { data, info } = await decode().raw().toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 };
    const full = () => sharp(data, { raw });
    const half = await full().resize(540).raw().toBuffer({ resolveWithObject: true });
    const small = () =>
      sharp(half.data, { raw: { width: half.info.width, height: half.info.height, channels: raw.channels } });
    // What an image with a colour profile (Display P3 here) pays instead: a TIFF keeps the profile.
    const p3 = await (
      bytes[0] === 0xff
        ? sharp(bytes).withIccProfile('p3').jpeg({ quality: 88 })
        : sharp(bytes).withIccProfile('p3').png()
    ).toBuffer();
    const opaque = info.channels === 4 || info.channels === 2; // the test PNG's alpha channel is opaque
    const flat = (image: Sharp) => (opaque ? image.removeAlpha() : image);
    const steps: [string, () => Promise<Buffer>][] = [
      ['header (metadata)', async () => Buffer.from(JSON.stringify(await sharp(bytes).metadata()))],
      ['bare decode + resize → raw (the reference)', () => bare(bytes)],
      ['decode + orient + resize → raw (the one decode)', () => decode().raw().toBuffer()],
      ['  alternative: → uncompressed TIFF', () => decode().tiff({ compression: 'none' }).toBuffer()],
      ['  P3 image: bare reference', () => bare(p3)],
      [
        '  P3 image: decode → TIFF with profile (used)',
        () =>
          sharp(p3)
            .autoOrient()
            .resize(box.width, box.height, { fit: 'inside' })
            .keepIccProfile()
            .tiff({ compression: 'none' })
            .toBuffer(),
      ],
      ...(opaque
        ? [
            ['alpha plane check', () => full().extractChannel('alpha').raw().toBuffer()] as [
              string,
              () => Promise<Buffer>,
            ],
          ]
        : []),
      ['WebP 1080 q80 effort 2 (used)', () => full().webp({ quality: 80, effort: 2, alphaQuality: 90 }).toBuffer()],
      ['  alternative: effort 0', () => full().webp({ quality: 80, effort: 0 }).toBuffer()],
      ['  alternative: effort 1', () => full().webp({ quality: 80, effort: 1 }).toBuffer()],
      ['  alternative: effort 4 (default)', () => full().webp({ quality: 80, effort: 4 }).toBuffer()],
      [
        'JPEG 1080 q82 baseline, optimised (used)',
        () => flat(full()).jpeg({ quality: 82, optimiseCoding: true }).toBuffer(),
      ],
      ['  alternative: progressive', () => flat(full()).jpeg({ quality: 82, progressive: true }).toBuffer()],
      ['  alternative: mozjpeg', () => flat(full()).jpeg({ quality: 82, mozjpeg: true }).toBuffer()],
      [
        'PNG 1080 level 6 adaptive (when transparent)',
        () => full().png({ compressionLevel: 6, adaptiveFiltering: true }).toBuffer(),
      ],
      ['scale 1080 pixels → 540 raw', () => full().resize(540).raw().toBuffer()],
      ['  alternative: decode the upload again to 540', () => sharp(bytes).resize(540).raw().toBuffer()],
      ['WebP 540', () => small().webp({ quality: 80, effort: 2, alphaQuality: 90 }).toBuffer()],
      ['JPEG 540', () => flat(small()).jpeg({ quality: 82, optimiseCoding: true }).toBuffer()],
      [
        'thumbhash pixels (1080 → 100 px RGBA)',
        () => full().resize(100, 100, { fit: 'inside' }).toColourspace('srgb').ensureAlpha().raw().toBuffer(),
      ],
    ];
    console.log(`${name}, ${(bytes.length / 1e6).toFixed(2)} MB:`);
    for (const [label, work] of steps) {
      const size = (await work()).length;
      const sizeText =
        label.startsWith('WebP') ||
        label.startsWith('JPEG') ||
        label.startsWith('PNG') ||
        label.includes('effort') ||
        label.includes('progressive') ||
        label.includes('mozjpeg')
          ? `${(size / 1024).toFixed(0).padStart(6)} KiB`
          : '';
      console.log(`  ${label.padEnd(50)} ${(await timeMedian(runs, work)).toFixed(1).padStart(6)} ms ${sizeText}`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    `sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips}, ${sharp.concurrency()} libvips thread(s) per job, ` +
      `libuv pool ${process.env.UV_THREADPOOL_SIZE ?? 4}; wall ms = median of 9 alternating runs`,
  );
  for (const row of await runImageBench()) {
    console.log(
      `${row.name}: ${(row.bytes / 1e6).toFixed(2)} MB  pipeline (until the answer) ${row.pipelineMs.toFixed(0)} ms  ` +
        `bare ${row.bareMs.toFixed(0)} ms  ratio ${row.ratio.toFixed(2)}×  |  all variants ${row.allVariantsMs.toFixed(0)} ms ` +
        `(${row.allVariantsRatio.toFixed(2)}×), CPU ${row.pipelineCpuMs.toFixed(0)} vs ${row.bareCpuMs.toFixed(0)} ms`,
    );
  }
  if (process.argv.includes('--breakdown')) await imageBreakdown();
}
