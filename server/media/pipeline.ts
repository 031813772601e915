/**
 * Image processing for uploads, with sharp (libvips): checks the real type and size, then
 * writes web-sized variants (WebP + a JPEG/PNG fallback) and a thumbhash. Pure: bytes in,
 * encoded variants out; storing them is the service's job.
 */
import sharp, { type Metadata, type OutputInfo, type Sharp, type SharpOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import {
  IMAGE_TIME_LIMIT_SECONDS,
  UPLOAD_MAX_PIXELS,
  UPLOAD_MAX_QUEUED_PER_USER,
  type UploadPreset,
} from '../../lib/limits';
import { TEXTS } from '../../lib/texts';
import { DomainError, InvalidError, TooManyAttemptsError, UnsupportedError } from '../domain/errors';
import { fairLimiter, limiter } from '../domain/limiter';
import {
  FORMATS_OF,
  IMAGE_ERRORS,
  type ImageSource,
  checkDecodeCost,
  headerMatches,
  sniffImageFormat,
} from './inputCheck';
import { coverScale, feedRatio } from '../../lib/photoBox';

export { IMAGE_ERRORS, type ImageSource } from './inputCheck';

// Every upload is new input: libvips' operation cache would only keep finished images' memory.
sharp.cache(false);

/**
 * One upload is decoded at a time (the widest accepted one takes most of the 200 MB budget inside
 * libvips), and at
 * most two libvips calls run at a time: each holds a libuv thread, and password hashing needs the
 * others (docs/benchmarks/log/2026-11-23.md#image-memory-bounds-2026-11-23).
 */
const IMAGE_JOBS = 1;
const IMAGE_CALLS = 2;
/**
 * The image job slot, taken in turns by owner: one account's batch cannot make another's small
 * upload wait behind all of it. Images fetched from elsewhere take it too, owned by the person
 * they belong to (issue 68). Exported for tests that hold the slot to watch the order.
 */
export const imageJobs = fairLimiter(IMAGE_JOBS);
const imageCalls = limiter(IMAGE_CALLS);
/** Seconds a user told to wait for their queued uploads is asked to wait before the next. */
const QUEUED_RETRY_SECONDS = 5;
/** The 429 for an owner with UPLOAD_MAX_QUEUED_PER_USER images already queued or in work. */
export const queueFullError = () =>
  new TooManyAttemptsError(IMAGE_ERRORS.tooManyQueued, QUEUED_RETRY_SECONDS, 'TooManyUploadsQueued');

export type VariantFormat = 'webp' | 'jpg' | 'png';

export interface Variant {
  width: number;
  height: number;
  format: VariantFormat;
  contentType: string;
  data: Buffer;
}

export interface ProcessedImage {
  /** Largest first; for each size a WebP and a fallback of the same size. */
  variants: Variant[];
  /** The largest fallback variant: what `secure_url` points at. */
  main: Variant;
  thumbhash: string;
}

interface Size {
  width: number;
  height: number;
}

/**
 * Output sizes, largest first. `cover` crops to exactly that aspect ratio. `feed` keeps the
 * image's own ratio and makes it large enough to cover the feed box (4:5…1.91:1, lib/photoBox.ts)
 * of that width, so a panorama's short side is not blown up (docs/api-decisions.md, "Post variants are sized for the box they fill");
 * the box's area (1080 × 2160 for the largest) bounds each variant's pixels.
 */
const PRESETS: Record<UploadPreset, { fit: 'cover' | 'feed'; sizes: Size[] }> = {
  avatar: {
    fit: 'cover',
    sizes: [
      { width: 400, height: 400 },
      { width: 160, height: 160 },
    ],
  },
  banner: {
    fit: 'cover',
    sizes: [
      { width: 1500, height: 500 },
      { width: 750, height: 250 },
    ],
  },
  post: {
    fit: 'feed',
    sizes: [
      { width: 1080, height: 2160 },
      { width: 540, height: 1080 },
    ],
  },
};

export const CONTENT_TYPES: Record<VariantFormat, string> = { webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' };

// 'error' refuses bad CRCs, truncated data and broken headers (every corrupt PngSuite file and a
// cut-off JPEG) yet accepts every valid PngSuite file; 'warning' would also refuse real-world
// photos with harmless quirks such as extra bytes after the image.
// `animated: false`: an animated GIF or WebP is its first frame (sharp's default, said outright).
const INPUT_OPTIONS: SharpOptions = { failOn: 'error', limitInputPixels: UPLOAD_MAX_PIXELS, animated: false };

/**
 * The image's bytes opened for decoding, stopped by libvips past the time limit: the header
 * checks bound the memory, this bounds a decode that is slow for its size.
 */
const decoding = (bytes: Buffer) => sharp(bytes, INPUT_OPTIONS).timeout({ seconds: IMAGE_TIME_LIMIT_SECONDS });

const corrupt = () => new InvalidError(IMAGE_ERRORS.corruptImage, 'CorruptImage');

/** One libvips call, in its turn. Any failure on user bytes is the bytes' fault: a 400, never a 500. */
async function orCorrupt<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await imageCalls.run(work);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // sharp's message when the time limit stopped libvips ("timeout: 40% complete").
    if (error instanceof Error && error.message.startsWith('timeout'))
      throw new InvalidError(IMAGE_ERRORS.tooSlow, 'ImageTooSlow');
    throw corrupt();
  }
}

/**
 * The sizes to write for an image of `source` size (already oriented), largest first. Never
 * larger than the source; sizes that collapse onto the same width are written once.
 */
export function plannedSizes(preset: UploadPreset, source: Size): Size[] {
  const { fit, sizes } = PRESETS[preset];
  const planned: Size[] = [];
  for (const box of sizes) {
    let size: Size;
    if (fit === 'cover') {
      // The largest crop of the box's ratio that fits in the source, then scaled down to the box.
      const ratio = box.width / box.height;
      const cropWidth = Math.min(source.width, source.height * ratio);
      const width = Math.max(1, Math.round(Math.min(box.width, cropWidth)));
      size = { width, height: Math.max(1, Math.round(width / ratio)) };
    } else {
      // Wide enough that the box of width `box.width` is covered, never past the source, and at
      // most the box's area in pixels (only 1:7+ panoramas and 1:2+ strips reach that).
      const { width, height } = source;
      const cover = box.width * coverScale(width, height, feedRatio(width, height));
      const scale = Math.min(1, cover / width, Math.sqrt((box.width * box.height) / (width * height)));
      // Rounded, or down when rounding up would pass the pixel budget.
      const budget = box.width * box.height;
      const round = Math.round(width * scale) * Math.round(height * scale) > budget ? Math.floor : Math.round;
      size = { width: Math.max(1, round(width * scale)), height: Math.max(1, round(height * scale)) };
    }
    if (!planned.some((p) => p.width === size.width)) planned.push(size);
  }
  return planned;
}

/**
 * Header-only checks, the same for every source: the format by magic bytes (only the source's
 * raster formats; SVG and anything else never reach libvips), then what decoding would cost
 * (`checkDecodeCost`) before a pixel is decoded.
 */
async function inspect(bytes: Buffer, source: ImageSource): Promise<Metadata> {
  const format = sniffImageFormat(bytes);
  if (!format || !FORMATS_OF[source].includes(format))
    throw new UnsupportedError(TEXTS.allowedFormats, 'UnsupportedMediaType');
  // metadata() reads only the header, so it may see any size: the check below then answers
  // with the real reason instead of libvips' generic pixel-limit failure.
  const meta = await orCorrupt(() => sharp(bytes, { ...INPUT_OPTIONS, limitInputPixels: false }).metadata());
  if (!headerMatches(meta, format)) throw corrupt();
  checkDecodeCost(meta, format);
  return meta;
}

/**
 * Encoder settings, chosen with `bench/images.ts --breakdown`: a setting that costs much more CPU
 * per upload for files barely smaller is left out (docs/benchmarks/notes.md#media).
 */
function encode(image: Sharp, format: VariantFormat): Sharp {
  // Effort 2, not the default 4 (much slower) nor 0–1 (much larger files): browsers download the WebP.
  if (format === 'webp') return image.webp({ quality: 80, effort: 2, alphaQuality: 90 });
  if (format === 'png') return image.png({ compressionLevel: 6, adaptiveFiltering: true });
  // libjpeg-turbo, baseline with optimised Huffman tables. The JPEG is the fallback and `secure_url`.
  return image.jpeg({ quality: 82, optimiseCoding: true });
}

/**
 * Decoded pixels every variant of one size is made from, held in memory so no variant decodes
 * the upload again. Raw pixels when the colour is sRGB (no copy or container to write or parse);
 * an uncompressed TIFF when a colour profile must be kept, because raw pixels cannot carry one
 * and the profile must stay attached without converting the pixels (wide gamut stays wide).
 */
type Pixels = () => Sharp;

/** Raw output's sample format ('uchar', 'ushort'…): sharp reports it but its typings leave it out. */
const depthOf = (info: OutputInfo) => (info as OutputInfo & { depth?: string }).depth;

async function pixelsOf(image: Sharp, keepIcc: boolean): Promise<Pixels> {
  if (keepIcc) {
    const tiff = await orCorrupt(() => image.keepIccProfile().tiff({ compression: 'none' }).toBuffer());
    return () => sharp(tiff, { failOn: 'error' });
  }
  const { data, info } = await orCorrupt(() => image.raw().toBuffer({ resolveWithObject: true }));
  // 16-bit input (PNG) stays 16-bit: the typed array tells sharp the depth.
  const pixels = depthOf(info) === 'ushort' ? new Uint16Array(data.buffer, data.byteOffset, data.length / 2) : data;
  const raw = { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 };
  return () => sharp(pixels, { raw });
}

/** True when every pixel's alpha is at its maximum. */
async function isOpaque(pixels: Pixels): Promise<boolean> {
  // Only the alpha plane is read, at the largest output size (what the variants will show).
  const alpha = await orCorrupt(() => pixels().extractChannel('alpha').raw().toBuffer());
  // The maximum is all one bits at either depth (0xff, 0xffff): compare bytes (memcmp), which is
  // far faster than a JS loop over a megapixel.
  return alpha.equals(Buffer.alloc(alpha.length, 0xff));
}

/** ≤100×100 sRGB RGBA pixels → base64 thumbhash, the placeholder shown while the image loads. */
async function thumbhashOf(pixels: Pixels): Promise<string> {
  // Pixels with a colour profile are converted to sRGB by sharp's default output (no
  // keepIccProfile here); toColourspace makes greyscale images RGB.
  const { data, info } = await orCorrupt(() =>
    pixels()
      .resize(100, 100, { fit: 'inside' })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true }),
  );
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

async function encodeVariant(
  pixels: Pixels,
  format: VariantFormat,
  { opaque, keepIcc }: { opaque: boolean; keepIcc: boolean },
): Promise<Variant> {
  // An alpha channel that every pixel leaves opaque is dropped rather than encoded. Without
  // keepIccProfile sharp would convert profiled pixels to sRGB (what the thumbhash wants, not this).
  const image = opaque ? pixels().removeAlpha() : pixels();
  if (keepIcc) image.keepIccProfile();
  const { data, info } = await orCorrupt(() => encode(image, format).toBuffer({ resolveWithObject: true }));
  return { width: info.width, height: info.height, format, contentType: CONTENT_TYPES[format], data };
}

/**
 * An upload decoded once, with what the upload must have before it answers (the main variant
 * and the thumbhash) already encoded, and the other variants encoded on demand from the same
 * pixels.
 */
export interface StagedImage {
  /** The largest JPEG/PNG fallback: what `secure_url` points at. */
  main: Variant;
  thumbhash: string;
  /**
   * Encodes the other variants: the largest WebP, then WebP + fallback of each smaller size.
   * Frees the upload's job slot when done.
   */
  rest(): Promise<Variant[]>;
  /** Frees the job slot without the other variants (the upload failed); `rest` does it too. */
  release(): void;
}

/**
 * Checks the header, then decodes in `owner`'s turn for the job slot, which the caller frees with
 * `rest()` or `release()`. Refusals answer without waiting for a slot; an owner with
 * UPLOAD_MAX_QUEUED_PER_USER uploads already queued or in work is refused (429). `source` says
 * which formats are taken (`FORMATS_OF`); every other bound is the same.
 */
export async function stageImage(
  bytes: Buffer,
  preset: UploadPreset,
  owner: string,
  source: ImageSource = 'upload',
): Promise<StagedImage> {
  const meta = await inspect(bytes, source);
  if (imageJobs.pending(owner) >= UPLOAD_MAX_QUEUED_PER_USER) throw queueFullError();
  const release = await imageJobs.acquire(owner);
  try {
    return await stageChecked(bytes, preset, meta, release);
  } catch (error) {
    release();
    throw error;
  }
}

async function stageChecked(
  bytes: Buffer,
  preset: UploadPreset,
  meta: Metadata,
  release: () => void,
): Promise<StagedImage> {
  // Orientations 5–8 swap the sides.
  const rotated = (meta.orientation ?? 1) >= 5;
  const source = rotated ? { width: meta.height!, height: meta.width! } : { width: meta.width!, height: meta.height! };
  const [largest, ...smaller] = plannedSizes(preset, source);
  // Keep a colour profile (wide-gamut photos stay wide) unless it is CMYK, which WebP cannot carry:
  // CMYK and profile-less images are converted to sRGB while decoding.
  const keepIcc = Boolean(meta.icc) && meta.space !== 'cmyk';

  // The one decode of the upload: orient, crop and scale to the largest size. No EXIF, GPS or
  // other metadata survives it; the colour profile does when kept.
  const full = await pixelsOf(
    decoding(bytes)
      .autoOrient()
      .resize(largest.width, largest.height, { fit: 'cover', position: 'centre', withoutEnlargement: true }),
    keepIcc,
  );
  // PNG only when some pixel is actually see-through; an opaque alpha channel gets a JPEG (and
  // is dropped). Only images with an alpha channel need looking at, and then only that channel.
  // Each encode is its own libvips job on the libuv pool, so jobs started together run side by
  // side on the cores.
  const [thumbhash, main] = await Promise.all([
    thumbhashOf(full),
    (meta.hasAlpha ? isOpaque(full) : Promise.resolve(true)).then((opaque) =>
      encodeVariant(full, opaque ? 'jpg' : 'png', { opaque: meta.hasAlpha && opaque, keepIcc }),
    ),
  ]);
  const fallback = main.format;
  const dropAlpha = meta.hasAlpha && fallback === 'jpg';

  async function variants(): Promise<Variant[]> {
    // The slowest job (the largest WebP) first; smaller sizes are scaled from the decoded pixels,
    // never from the upload. libwebp itself leaves out an alpha channel no pixel uses.
    const largestWebp = encodeVariant(full, 'webp', { opaque: false, keepIcc });
    const others = smaller.map(async (size) => {
      const pixels = await pixelsOf(full().resize(size.width, size.height, { fit: 'fill' }), keepIcc);
      return Promise.all([
        encodeVariant(pixels, 'webp', { opaque: false, keepIcc }),
        encodeVariant(pixels, fallback, { opaque: dropAlpha, keepIcc }),
      ]);
    });
    const [webp, ...pairs] = await Promise.all([largestWebp, ...others]);
    return [webp, ...pairs.flat()];
  }
  const rest = async () => {
    try {
      return await variants();
    } finally {
      release();
    }
  };
  return { main, thumbhash, rest, release };
}

/** Every variant encoded before it returns: largest first, for each size a WebP then the fallback. */
export async function processImage(
  bytes: Buffer,
  preset: UploadPreset,
  owner = 'server',
  source: ImageSource = 'upload',
): Promise<ProcessedImage> {
  const { main, thumbhash, rest } = await stageImage(bytes, preset, owner, source);
  const [largestWebp, ...smaller] = await rest();
  return { variants: [largestWebp, main, ...smaller], main, thumbhash };
}
