/**
 * Image processing for uploads, with sharp (libvips): checks the real type and size, then
 * writes web-sized variants (WebP + a JPEG/PNG fallback) and a thumbhash. Pure: bytes in,
 * encoded variants out; storing them is the service's job.
 */
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { UPLOAD_MAX_PIXELS, type UploadPreset } from '../../lib/limits';
import { TEXTS } from '../../lib/texts';
import { HttpError } from '../http/errors';


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

interface Size { width: number; height: number }

/**
 * Output sizes, largest first. `cover` crops to exactly that aspect ratio; `inside` keeps the
 * image's own ratio within the box (the box height only stops absurdly tall strips).
 */
const PRESETS: Record<UploadPreset, { fit: 'cover' | 'inside'; sizes: Size[] }> = {
  avatar: { fit: 'cover', sizes: [{ width: 400, height: 400 }, { width: 160, height: 160 }] },
  banner: { fit: 'cover', sizes: [{ width: 1500, height: 500 }, { width: 750, height: 250 }] },
  post: { fit: 'inside', sizes: [{ width: 1080, height: 2160 }, { width: 540, height: 1080 }] },
};

export const CONTENT_TYPES: Record<VariantFormat, string> = { webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' };

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** The real type from the first bytes; names and declared types are never trusted. */
export function sniffImageType(bytes: Buffer): 'png' | 'jpeg' | null {
  if (bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) return 'png';
  if (bytes.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC)) return 'jpeg';
  return null;
}

// 'error' refuses bad CRCs, truncated data and broken headers (every corrupt PngSuite file and a
// cut-off JPEG) yet accepts every valid PngSuite file; 'warning' would also refuse real-world
// photos with harmless quirks such as extra bytes after the image.
const INPUT_OPTIONS: SharpOptions = { failOn: 'error', limitInputPixels: UPLOAD_MAX_PIXELS };

const corrupt = () => new HttpError(400, 'CorruptImage', TEXTS.corruptImage);

/** Any libvips failure on user bytes is the bytes' fault: a 400, never a 500. */
async function orCorrupt<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof HttpError) throw error;
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
      const scale = Math.min(1, box.width / source.width, box.height / source.height);
      size = { width: Math.max(1, Math.round(source.width * scale)), height: Math.max(1, Math.round(source.height * scale)) };
    }
    if (!planned.some((p) => p.width === size.width)) planned.push(size);
  }
  return planned;
}

/** Header-only checks: type by magic bytes, then the pixel count before anything is decoded. */
async function inspect(bytes: Buffer) {
  const type = sniffImageType(bytes);
  if (!type) throw new HttpError(415, 'UnsupportedMediaType', TEXTS.allowedFormats);
  // metadata() reads only the header, so it may see any size: the check below then answers
  // with the real reason instead of libvips' generic pixel-limit failure.
  const meta = await orCorrupt(sharp(bytes, { ...INPUT_OPTIONS, limitInputPixels: false }).metadata());
  if (meta.format !== type || !meta.width || !meta.height) throw corrupt();
  if (meta.width * meta.height > UPLOAD_MAX_PIXELS) throw new HttpError(400, 'ImageTooLarge', TEXTS.tooManyPixels);
  return meta;
}

function encode(image: Sharp, format: VariantFormat): Sharp {
  // Effort 2 is ~2.5× faster than the default 4 for files a few percent larger (docs/benchmarks.md).
  if (format === 'webp') return image.webp({ quality: 80, effort: 2, alphaQuality: 90 });
  // Level 9 was about 3× slower for files only ~7% smaller.
  if (format === 'png') return image.png({ compressionLevel: 6, adaptiveFiltering: true });
  // libjpeg-turbo: the JPEG is only the fallback for browsers without WebP; mozjpeg was ~4× slower.
  return image.jpeg({ quality: 82, progressive: true });
}

/** True when every pixel's alpha is at its maximum. */
async function isOpaque(image: Sharp): Promise<boolean> {
  // stats() would measure every channel of the input; reading just the alpha plane is cheaper.
  const alpha = await orCorrupt(image.clone().extractChannel('alpha').raw({ depth: 'uchar' }).toBuffer());
  return alpha.every((value) => value === 255);
}

/** ≤100×100 sRGB RGBA pixels → base64 thumbhash, the placeholder shown while the image loads. */
async function thumbhashOf(image: Sharp): Promise<string> {
  const { data, info } = await image.resize(100, 100, { fit: 'inside' }).ensureAlpha().raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

export async function processImage(bytes: Buffer, preset: UploadPreset): Promise<ProcessedImage> {
  const meta = await inspect(bytes);
  // Orientations 5–8 swap the sides.
  const rotated = (meta.orientation ?? 1) >= 5;
  const source = rotated ? { width: meta.height!, height: meta.width! } : { width: meta.width!, height: meta.height! };
  const [largest, ...smaller] = plannedSizes(preset, source);
  // Keep a colour profile (wide-gamut photos stay wide) unless it is CMYK, which WebP cannot carry.
  const keepIcc = Boolean(meta.icc) && meta.space !== 'cmyk';
  const withIcc = (image: Sharp) => (keepIcc ? image.keepIccProfile() : image);

  // Decode the upload once: orient, crop and scale it to the largest size into an uncompressed
  // TIFF (keeps the ICC profile, alpha and bit depth; no EXIF, GPS or other metadata). Every
  // variant is then made from that small intermediate instead of decoding the upload again.
  const intermediate = await orCorrupt(
    withIcc(sharp(bytes, INPUT_OPTIONS).autoOrient()
      .resize(largest.width, largest.height, { fit: 'cover', position: 'centre', withoutEnlargement: true }))
      .tiff({ compression: 'none' })
      .toBuffer(),
  );
  const base = sharp(intermediate, { failOn: 'error' });
  // PNG only when some pixel is actually see-through; an opaque alpha channel gets a JPEG.
  // Only images with an alpha channel need looking at, and then only that channel.
  const fallback: VariantFormat = meta.hasAlpha && !(await isOpaque(base)) ? 'png' : 'jpg';

  const jobs: Promise<Variant>[] = [];
  for (const size of [largest, ...smaller]) {
    const resized = size === largest ? base.clone() : base.clone().resize(size.width, size.height, { fit: 'fill' });
    for (const format of ['webp', fallback] as const) {
      jobs.push(orCorrupt(encode(withIcc(resized.clone()), format).toBuffer({ resolveWithObject: true }))
        .then(({ data, info }) => ({ width: info.width, height: info.height, format, contentType: CONTENT_TYPES[format], data })));
    }
  }
  const [variants, thumbhash] = await Promise.all([Promise.all(jobs), orCorrupt(thumbhashOf(base.clone()))]);
  return { variants, main: variants.find((v) => v.format === fallback)!, thumbhash };
}
