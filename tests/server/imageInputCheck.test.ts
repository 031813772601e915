/**
 * The one check every image goes through before it is decoded (issue 68, item 34): the format from
 * the bytes, each source's allow-list (uploads JPEG and PNG; other servers also WebP, GIF, AVIF;
 * never SVG), and what decoding would cost from the header alone, for both sources.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { checkDecodeCost, sniffImageFormat } from '../../server/media/inputCheck';
import { processImage, stageImage } from '../../server/media/pipeline';

const avif7000 = readFileSync(path.join(import.meta.dirname, '../fixtures/remote/7000x7000.avif'));
const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a8' } });
const codeOf = (work: Promise<unknown>) =>
  work.then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );

describe('the format, from the bytes', () => {
  it('is one of the raster formats by their magic bytes, whatever else the bytes are', async () => {
    expect(sniffImageFormat(await solid(8, 8).png().toBuffer())).toBe('png');
    expect(sniffImageFormat(await solid(8, 8).jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImageFormat(await solid(8, 8).webp().toBuffer())).toBe('webp');
    expect(sniffImageFormat(await solid(8, 8).gif().toBuffer())).toBe('gif');
    expect(sniffImageFormat(avif7000)).toBe('avif');
    for (const text of [
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      '<?xml version="1.0"?><svg/>',
      '<!doctype html>',
      '',
    ])
      expect(sniffImageFormat(Buffer.from(text)), text).toBeNull();
  });

  it('is not AVIF for another ISO-BMFF brand (HEIC)', () => {
    const heic = Buffer.from(avif7000);
    // The major brand and every compatible brand, renamed.
    for (let at = heic.indexOf('avif'); at !== -1; at = heic.indexOf('avif', at)) heic.write('heic', at, 'latin1');
    heic.write('heic', 8, 'latin1');
    expect(sniffImageFormat(heic)).toBeNull();
  });
});

describe('the pipeline’s sources', () => {
  it('takes WebP, GIF and AVIF from elsewhere only; uploads stay JPEG and PNG', async () => {
    for (const image of [solid(300, 200).webp(), solid(300, 200).gif(), solid(300, 200).avif()]) {
      const bytes = await image.toBuffer();
      expect(await codeOf(stageImage(bytes, 'post', 'test'))).toBe('UnsupportedMediaType');
      const processed = await processImage(bytes, 'post', 'test', 'remote');
      expect(processed.main).toMatchObject({ width: 300, height: 200, format: 'jpg' });
    }
  });

  it('takes an animated WebP or GIF from elsewhere as its first frame', async () => {
    const frames = await Promise.all(
      ['#33aa88', '#aa3388'].map((background) => solid(300, 200).flatten({ background }).png().toBuffer()),
    );
    for (const format of ['webp', 'gif'] as const) {
      const animated = await sharp(frames, { join: { animated: true } })
        .toFormat(format)
        .toBuffer();
      const processed = await processImage(animated, 'post', 'test', 'remote');
      expect(processed.main, format).toMatchObject({ width: 300, height: 200 });
    }
  });

  it('never renders an SVG, from either source', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect(await codeOf(stageImage(svg, 'avatar', 'test'))).toBe('UnsupportedMediaType');
    expect(await codeOf(stageImage(svg, 'avatar', 'test', 'remote'))).toBe('UnsupportedMediaType');
  });

  it('refuses an AVIF of 1 KB whose picture is 7,000 × 7,000 from its header: decoded, it held 860 MB', async () => {
    expect(await codeOf(stageImage(avif7000, 'avatar', 'test', 'remote'))).toBe('ImageTooLarge');
    expect(await codeOf(stageImage(avif7000, 'avatar', 'test'))).toBe('UnsupportedMediaType');
  });
});

describe('what decoding would cost', () => {
  const header = (meta: Partial<Metadata>) => ({ channels: 3, depth: 'uchar', ...meta }) as Metadata;
  const refusal = (meta: Partial<Metadata>, format: Parameters<typeof checkDecodeCost>[1]) => {
    try {
      checkDecodeCost(header(meta), format);
      return 'ok';
    } catch (error) {
      return (error as { code?: string }).code;
    }
  };

  it('bounds the area, each side and a row the same for every format', () => {
    for (const format of ['jpeg', 'png', 'webp', 'gif', 'avif'] as const) {
      expect(refusal({ width: 30_000, height: 30_000 }, format), format).toBe('ImageTooLarge');
      expect(refusal({ width: 40_000, height: 1_000 }, format), format).toBe('ImageTooLarge');
      expect(refusal({ width: 2_000, height: 50 }, format), format).toBe('ImageTooLarge');
      expect(refusal({ width: 1_000, height: 800 }, format), format).toBe('ok');
    }
  });

  it('counts what a decoder holds when it decodes the whole image: AVIF, GIF, animated WebP', () => {
    // AVIF: 3840 × 2160 at 8 bits is the largest taken, fewer pixels at 10 bits.
    expect(refusal({ width: 3_840, height: 2_160 }, 'avif')).toBe('ok');
    expect(refusal({ width: 4_000, height: 3_000 }, 'avif')).toBe('ImageTooLarge');
    expect(refusal({ width: 3_840, height: 2_160, depth: 'ushort' }, 'avif')).toBe('ImageTooLarge');
    expect(refusal({ width: 5_000, height: 4_000 }, 'gif')).toBe('ok');
    expect(refusal({ width: 6_000, height: 4_000 }, 'gif')).toBe('ImageTooLarge');
    // A still WebP is shrunk while it loads; an animated one is drawn on a whole canvas.
    expect(refusal({ width: 6_000, height: 4_000 }, 'webp')).toBe('ok');
    expect(refusal({ width: 6_000, height: 4_000, pages: 3 }, 'webp')).toBe('ImageTooLarge');
  });
});
