/**
 * Run in a fresh process (`node --import tsx peakRss.ts '<json>'`): processes uploads of the
 * given shapes (PNG or JPEG, or files already made: AVIF, GIF…), all at once, and prints how far they raised the process's peak RSS (VmHWM) above
 * its peak after a warm-up upload, with each upload's outcome. The files are built first, a
 * piece at a time, so building them does not set the peak the uploads are measured against.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import type { UploadPreset } from '../../../lib/limits';
import { type ImageSource, processImage } from '../../../server/media/pipeline';
import { type JpegShape, zeroJpeg } from './jpegShapes';
import { type PngShape, zeroPng } from './pngShapes';

/** A file made beforehand (formats whose encoder would itself set the peak), by its path. */
export interface ImageFile {
  file: string;
}

export type ImageShape = PngShape | JpegShape | ImageFile;

export interface PeakRssRequest {
  preset: UploadPreset;
  /** Uploaded together. */
  shapes: ImageShape[];
  /** 'remote': as images fetched from elsewhere (their formats); uploads by default. */
  source?: ImageSource;
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
  const files: Buffer[] = [];
  for (const shape of request.shapes) {
    const key = JSON.stringify(shape);
    if (!built.has(key))
      built.set(
        key,
        'file' in shape ? readFileSync(shape.file) : 'format' in shape ? zeroJpeg(shape) : await zeroPng(shape),
      );
    files.push(built.get(key)!);
  }
  // Loads libvips and its codecs, as a server that has served an upload has.
  const warm = await sharp({ create: { width: 1200, height: 800, channels: 4, background: '#3a8' } })
    .png()
    .toBuffer();
  await processImage(warm, request.preset);
  const baselineMb = peakMb();
  const outcomes = await Promise.all(
    // Each from its own user, as on a server: one user's uploads are capped.
    files.map((bytes, i) =>
      processImage(bytes, request.preset, `user-${i}`, request.source).then(
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
