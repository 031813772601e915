/**
 * Run in a fresh process (`node --import tsx peakRss.ts '<json>'`): processes PNG uploads of the
 * given shapes, all at once, and prints how far they raised the process's peak RSS (VmHWM) above
 * its peak after a warm-up upload, with each upload's outcome.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import type { UploadPreset } from '../../../lib/limits';
import { processImage } from '../../../server/media/pipeline';
import { type PngShape, zeroPng } from './pngShapes';

export interface PeakRssRequest {
  preset: UploadPreset;
  /** Uploaded together. */
  shapes: PngShape[];
}

export interface PeakRssResult {
  /** Peak RSS after the warm-up, MB. */
  baselineMb: number;
  /** How far the uploads raised the peak, MB. */
  raisedMb: number;
  /** "ok WxH" or the refusal's code, per upload. */
  outcomes: string[];
}

const peakMb = () => {
  const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return line ? Number(line[1]) / 1024 : process.resourceUsage().maxRSS / 1024;
};

async function main(request: PeakRssRequest): Promise<PeakRssResult> {
  const built = new Map<string, Buffer>();
  const files = request.shapes.map((shape) => {
    const key = JSON.stringify(shape);
    if (!built.has(key)) built.set(key, zeroPng(shape));
    return built.get(key)!;
  });
  // Loads libvips and its codecs, as a server that has served an upload has.
  const warm = await sharp({ create: { width: 1200, height: 800, channels: 4, background: '#3a8' } })
    .png()
    .toBuffer();
  await processImage(warm, request.preset);
  const baselineMb = peakMb();
  const outcomes = await Promise.all(
    files.map((bytes) =>
      processImage(bytes, request.preset).then(
        (image) => `ok ${image.main.width}x${image.main.height}`,
        (error: { code?: string; message: string }) => error.code ?? error.message,
      ),
    ),
  );
  return { baselineMb: Math.round(baselineMb), raisedMb: Math.round(peakMb() - baselineMb), outcomes };
}

if (process.argv[2]) {
  main(JSON.parse(process.argv[2]) as PeakRssRequest).then(
    (result) => console.log(JSON.stringify(result)),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
