/**
 * What an image will cost before it is decoded, from its first bytes and its header alone: the
 * one check every image this instance processes goes through, uploads and images fetched from
 * elsewhere alike (issue 68, item 34). Pure: `pipeline.ts` reads the header and calls it.
 */
import type { Metadata } from 'sharp';
import {
  UPLOAD_MAX_ASPECT,
  UPLOAD_MAX_INTERLACED_PNG_BYTES,
  UPLOAD_MAX_PIXELS,
  UPLOAD_MAX_PROGRESSIVE_JPEG_BYTES,
  UPLOAD_MAX_QUEUED_PER_USER,
  UPLOAD_MAX_ROW_BYTES,
  UPLOAD_MAX_SIDE,
  UPLOAD_MAX_WHOLE_DECODE_BYTES,
} from '../../lib/limits';
import { InvalidError } from '../domain/errors';

/** Raster formats the pipeline may decode. Never SVG, PDF, TIFF or HEIC: not even from elsewhere. */
export type InputFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

/**
 * Where an image comes from. Uploads are JPEG or PNG (what the client's picker promises); other
 * servers also send WebP, GIF (its first frame) and AVIF, which are taken from them only.
 */
export type ImageSource = 'upload' | 'remote';
export const FORMATS_OF: Record<ImageSource, readonly InputFormat[]> = {
  upload: ['jpeg', 'png'],
  remote: ['jpeg', 'png', 'webp', 'gif', 'avif'],
};

/** Why an image is refused; server-only, so they stay out of the client's TEXTS (the shared first load). */
export const IMAGE_ERRORS = {
  corruptImage: 'The image is corrupt or cannot be read',
  tooManyPixels: 'The image is too large: at most 50 megapixels',
  tooWide: 'The image is too large: at most 16000 pixels on each side, fewer across with transparency or 16-bit colour',
  tooThin: 'The image is too narrow: its long side may be at most 20 times its short side',
  tooLargeInterlaced: (megapixels: string) =>
    `The image is too large for an interlaced PNG: at most ${megapixels} megapixels in its colour format. Save it as a non-interlaced PNG, or make it smaller`,
  tooLargeProgressive: (megapixels: string) =>
    `The image is too large for a progressive JPEG: at most ${megapixels} megapixels in its colour format. Save it as a baseline (non-progressive) JPEG, or make it smaller`,
  tooLargeWhole: (megapixels: string) =>
    `The image is too large for its format: at most ${megapixels} megapixels. Send it as a JPEG or PNG, or make it smaller`,
  tooSlow: 'The image took too long to process',
  tooManyQueued: `You already have ${UPLOAD_MAX_QUEUED_PER_USER} images being processed: wait until one is done, then upload again`,
} as const;

const startsWith = (bytes: Buffer, magic: string | number[], at = 0) => {
  const expected = typeof magic === 'string' ? Buffer.from(magic, 'latin1') : Buffer.from(magic);
  return bytes.subarray(at, at + expected.length).equals(expected);
};

/**
 * An ISO-BMFF file whose `ftyp` box names the AVIF brand (major or compatible). HEIC shares the
 * container but not the brand: its HEVC decoder is not one to run on strangers' bytes.
 */
function isAvif(bytes: Buffer): boolean {
  if (bytes.length < 16 || !startsWith(bytes, 'ftyp', 4)) return false;
  const boxEnd = Math.min(bytes.readUInt32BE(0), bytes.length);
  // The major brand at 8, a minor version at 12, then the compatible brands.
  for (let at = 8; at + 4 <= boxEnd; at += at === 8 ? 8 : 4) {
    const brand = bytes.toString('latin1', at, at + 4);
    if (brand === 'avif' || brand === 'avis') return true;
  }
  return false;
}

/**
 * The real format from the first bytes, or null: names, declared types and Content-Type are never
 * trusted, and text (SVG, HTML) never matches.
 */
export function sniffImageFormat(bytes: Buffer): InputFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return 'webp';
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return 'gif';
  if (isAvif(bytes)) return 'avif';
  return null;
}

/** True when libvips read the header as the format the first bytes promised. */
export function headerMatches(meta: Metadata, format: InputFormat): boolean {
  if (format === 'avif') return meta.format === 'heif' && meta.compression === 'av1';
  return meta.format === format;
}

/** Chroma planes' size next to the luma plane's, by libjpeg's subsampling as sharp names it. */
const CHROMA_SHARE: Record<string, number> = { '4:4:4': 1, '4:2:2': 0.5, '4:4:0': 0.5, '4:2:0': 0.25, '4:1:1': 0.25 };

/**
 * Bytes the decoder holds per pixel when it cannot read a few rows at a time, or 0 when it can
 * (baseline JPEG, non-interlaced PNG; a still WebP is shrunk while it loads). Interlaced PNG: the
 * whole decoded image. Progressive JPEG: every DCT coefficient (2 bytes) of each plane, chroma
 * planes by their subsampling, a fourth (K) plane full size. GIF and animated WebP: the RGBA
 * canvas and the frame drawn on it. AVIF: libheif decodes the whole image, then converts it; a
 * 16 MP AVIF raised the peak by 18 bytes a pixel at 8 bits, 24 at 10 bits
 * (docs/benchmarks/log/2026-12-05.md#images-from-elsewhere-2026-12-05-22302250-utc-issue-68), counted with headroom for alpha.
 */
function heldBytesPerPixel(meta: Metadata, format: InputFormat): number {
  const channels = meta.channels ?? 4;
  const sample = meta.depth === 'uchar' ? 1 : 2;
  switch (format) {
    case 'png':
      return meta.isProgressive ? channels * sample : 0;
    case 'jpeg': {
      if (!meta.isProgressive) return 0;
      // Unknown subsampling counts as full-size planes.
      const share = CHROMA_SHARE[(meta.chromaSubsampling ?? '').split(':').slice(0, 3).join(':')] ?? 1;
      return 2 * (1 + Math.min(channels - 1, 2) * share + Math.max(channels - 3, 0));
    }
    case 'gif':
      return 10;
    case 'webp':
      return (meta.pages ?? 1) > 1 ? 10 : 0;
    case 'avif':
      return sample === 1 ? 24 : 32;
  }
}

/** The most a decoder of `format` may hold for one image, in bytes. */
function mostHeld(format: InputFormat): number {
  if (format === 'png') return UPLOAD_MAX_INTERLACED_PNG_BYTES;
  if (format === 'jpeg') return UPLOAD_MAX_PROGRESSIVE_JPEG_BYTES;
  return UPLOAD_MAX_WHOLE_DECODE_BYTES;
}

/**
 * Throws `ImageTooLarge` when decoding an image of this header would cost more than the budget,
 * whatever its format: the area, each side, a decoded row's bytes, the aspect, and what a decoder
 * that holds the whole image would hold.
 */
export function checkDecodeCost(meta: Metadata, format: InputFormat): void {
  const { width, height } = meta;
  if (!width || !height) throw new InvalidError(IMAGE_ERRORS.corruptImage, 'CorruptImage');
  if (width * height > UPLOAD_MAX_PIXELS) throw new InvalidError(IMAGE_ERRORS.tooManyPixels, 'ImageTooLarge');
  // The area alone lets one side be huge (10,000,000 × 5): libvips' buffers grow with a row's
  // decoded bytes, so wide images with transparency or 16-bit colour get fewer pixels across.
  const bytesPerPixel = (meta.channels ?? 4) * (meta.depth === 'uchar' ? 1 : 2);
  if (width * bytesPerPixel > UPLOAD_MAX_ROW_BYTES || width > UPLOAD_MAX_SIDE || height > UPLOAD_MAX_SIDE)
    throw new InvalidError(IMAGE_ERRORS.tooWide, 'ImageTooLarge');
  if (Math.max(width, height) > UPLOAD_MAX_ASPECT * Math.min(width, height))
    throw new InvalidError(IMAGE_ERRORS.tooThin, 'ImageTooLarge');
  // Interlaced, progressive and whole-image formats cost what they hold, whatever their area suggests.
  const held = heldBytesPerPixel(meta, format);
  const most = mostHeld(format);
  if (held && width * height * held > most) {
    const megapixels = (Math.floor(most / held / 100_000) / 10).toString();
    const message =
      format === 'png'
        ? IMAGE_ERRORS.tooLargeInterlaced
        : format === 'jpeg'
          ? IMAGE_ERRORS.tooLargeProgressive
          : IMAGE_ERRORS.tooLargeWhole;
    throw new InvalidError(message(megapixels), 'ImageTooLarge');
  }
}
