/** The image pipeline on its own (bytes in, encoded variants out): what each variant holds. */
import sharp from 'sharp';
import { thumbHashToAverageRGBA } from 'thumbhash';
import { processImage, stageImage } from '../../server/media/pipeline';
import { coverScale, feedRatio, scaledSizes } from '../../lib/photoBox';

const describeOf = (variants: { format: string; width: number; height: number }[]) =>
  variants.map((v) => `${v.format} ${v.width}x${v.height}`);
const averageOf = (thumbhash: string) => {
  const { r, g, b } = thumbHashToAverageRGBA(Buffer.from(thumbhash, 'base64'));
  return [r, g, b].map((v) => Math.round(v * 255));
};
const meanOf = async (image: Buffer) => (await sharp(image).stats()).channels.slice(0, 3).map((c) => c.mean);

/** Green background with an orange disc, 1600×1200 unless told. */
const picture = (width = 1600, height = 1200) =>
  sharp({ create: { width, height, channels: 3, background: '#33aa88' } }).composite([
    {
      input: Buffer.from(
        `<svg width="${width}" height="${height}"><circle cx="${width / 3}" cy="${height / 2}" r="${height / 3}" fill="#ff3300"/></svg>`,
      ),
    },
  ]);

describe('stageImage / processImage', () => {
  it('has the main JPEG and the thumbhash before the other variants, which come from the same pixels', async () => {
    const staged = await stageImage(await picture().jpeg().toBuffer(), 'post', 'test');
    expect(describeOf([staged.main])).toEqual(['jpg 1080x810']);
    expect((await sharp(staged.main.data).metadata()).format).toBe('jpeg');
    const rest = await staged.rest();
    expect(describeOf(rest)).toEqual(['webp 1080x810', 'webp 540x405', 'jpg 540x405']);
    for (const v of rest) {
      const meta = await sharp(v.data).metadata();
      expect([meta.format === 'jpeg' ? 'jpg' : meta.format, meta.width, meta.height]).toEqual([
        v.format,
        v.width,
        v.height,
      ]);
    }
    // The 540 px variants show the same picture as the 1080 px one.
    const [big, small] = [await meanOf(staged.main.data), await meanOf(rest[2].data)];
    for (let i = 0; i < 3; i++) expect(Math.abs(big[i] - small[i])).toBeLessThan(3);
  });

  it('processImage lists every variant largest first, WebP then the fallback, main = the largest fallback', async () => {
    const image = await processImage(await picture().jpeg().toBuffer(), 'post');
    expect(describeOf(image.variants)).toEqual(['webp 1080x810', 'jpg 1080x810', 'webp 540x405', 'jpg 540x405']);
    expect(image.main).toBe(image.variants[1]);
  });

  it('keeps transparency: PNG fallbacks and WebP with alpha at every size', async () => {
    const png = await sharp({
      create: { width: 1200, height: 800, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const image = await processImage(png, 'post');
    expect(describeOf(image.variants)).toEqual(['webp 1080x720', 'png 1080x720', 'webp 540x360', 'png 540x360']);
    for (const v of image.variants)
      expect((await sharp(v.data).metadata()).hasAlpha, `${v.format} ${v.width}`).toBe(true);
  });

  it('drops an alpha channel that every pixel leaves opaque: JPEG fallbacks', async () => {
    const png = await picture(1200, 800).ensureAlpha(1).png().toBuffer();
    expect((await sharp(png).metadata()).hasAlpha).toBe(true);
    const image = await processImage(png, 'post');
    expect(describeOf(image.variants)).toEqual(['webp 1080x720', 'jpg 1080x720', 'webp 540x360', 'jpg 540x360']);
    for (const v of image.variants) expect((await sharp(v.data).metadata()).hasAlpha).toBe(false);
  });

  it('handles a 16-bit PNG with transparency', async () => {
    const png = await sharp({
      create: { width: 1200, height: 800, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.25 } },
    })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(png).metadata()).depth).toBe('ushort');
    const image = await processImage(png, 'post');
    expect(describeOf(image.variants)).toEqual(['webp 1080x720', 'png 1080x720', 'webp 540x360', 'png 540x360']);
    const { data } = await sharp(image.variants[3].data).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 4)].map((v) => Math.round(v / 16))).toEqual([0, 0, 16, 4]);
  });

  it('keeps a wide-gamut profile on every variant without converting the pixels; the thumbhash is sRGB', async () => {
    const srgb = await picture().jpeg({ quality: 95 }).toBuffer();
    const p3 = await picture().withIccProfile('p3').jpeg({ quality: 95 }).toBuffer();
    const source = await sharp(p3).metadata();
    const image = await processImage(p3, 'post');
    for (const v of image.variants) {
      const meta = await sharp(v.data).metadata();
      expect(meta.icc?.equals(source.icc!), `${v.format} ${v.width}`).toBe(true);
      // Still the P3 numbers (an sRGB conversion would change them by far more than this).
      const [mine, original] = [await meanOf(v.data), await meanOf(p3)];
      for (let i = 0; i < 3; i++) expect(Math.abs(mine[i] - original[i])).toBeLessThan(3);
    }
    const [p3Average, srgbAverage] = [
      averageOf(image.thumbhash),
      averageOf((await processImage(srgb, 'post')).thumbhash),
    ];
    for (let i = 0; i < 3; i++) expect(Math.abs(p3Average[i] - srgbAverage[i])).toBeLessThan(4);
  });

  it('converts CMYK to sRGB, without a profile', async () => {
    const cmyk = await picture().toColourspace('cmyk').jpeg({ quality: 95 }).toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const image = await processImage(cmyk, 'post');
    const reference = await meanOf(await picture().png().toBuffer());
    for (const v of image.variants) {
      const meta = await sharp(v.data).metadata();
      expect([meta.space, meta.channels, meta.icc]).toEqual(['srgb', 3, undefined]);
      const mine = await meanOf(v.data);
      for (let i = 0; i < 3; i++) expect(Math.abs(mine[i] - reference[i])).toBeLessThan(12);
    }
  });

  it('applies the EXIF orientation to every size', async () => {
    const rotated = await picture().jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const image = await processImage(rotated, 'post');
    expect(describeOf(image.variants)).toEqual(['webp 1080x1440', 'jpg 1080x1440', 'webp 540x720', 'jpg 540x720']);
    for (const v of image.variants) {
      // The disc was on the left third; after a quarter turn clockwise it is on the top third.
      const { data, info } = await sharp(v.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const red = (x: number, y: number) =>
        data[(Math.round(y * info.height) * info.width + Math.round(x * info.width)) * info.channels];
      expect(red(0.5, 1 / 3), `${v.format} ${v.width}`).toBeGreaterThan(200);
      expect(red(0.5, 0.9), `${v.format} ${v.width}`).toBeLessThan(100);
    }
  });

  it('makes a colour thumbhash of a greyscale image', async () => {
    const grey = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080' } })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    expect((await sharp(grey).metadata()).channels).toBe(1);
    const image = await processImage(grey, 'post');
    for (const value of averageOf(image.thumbhash)) expect(Math.abs(value - 128)).toBeLessThan(10);
  });
});

describe('post variants cover the feed box (issue 68, item 2)', () => {
  /**
   * What a browser does with the srcset and the `sizes` PostImage gives it: the smallest candidate
   * at least as wide as the image is drawn (the box's width times coverScale), else the largest.
   */
  const pick = (variants: { width: number; height: number }[], drawnWidth: number) => {
    const bySize = [...variants].sort((a, b) => a.width - b.width);
    return bySize.find((v) => v.width >= drawnWidth) ?? bySize[bySize.length - 1];
  };

  it.each([
    [2000, 250],
    [600, 1600],
    [1600, 1200],
  ])(
    '%i×%i: every box width the feed asks for (375…1080 device px) is covered, never past the original',
    async (width, height) => {
      const image = await processImage(await picture(width, height).jpeg().toBuffer(), 'post');
      const webp = image.variants.filter((v) => v.format === 'webp');
      for (const v of image.variants) {
        expect(v.width).toBeLessThanOrEqual(width);
        expect(v.height).toBeLessThanOrEqual(height);
      }
      const ratio = feedRatio(width, height);
      for (const box of [375, 600, 750, 1080]) {
        const chosen = pick(webp, box * coverScale(width, height, ratio));
        // Covers the box's width and height (cropped, cover), or is the whole original.
        expect(chosen.width, `box ${box}`).toBeGreaterThanOrEqual(Math.min(width, box));
        expect(chosen.height, `box ${box}`).toBeGreaterThanOrEqual(Math.min(height, Math.floor(box / ratio)));
      }
    },
  );

  it('keeps the panorama at its own size (2000×250), not 1080×135', async () => {
    const image = await processImage(await picture(2000, 250).jpeg().toBuffer(), 'post');
    expect(describeOf(image.variants)).toEqual(['webp 2000x250', 'jpg 2000x250']);
  });

  it("bounds a variant's pixels by the box's area: a 20:1 strip is not stored whole", async () => {
    const image = await processImage(await picture(12000, 600).jpeg().toBuffer(), 'post');
    for (const v of image.variants) expect(v.width * v.height).toBeLessThanOrEqual(1080 * 2160);
    expect(image.main.width / image.main.height).toBeCloseTo(20, 0);
  });

  it('PostImage asks for the width the cropped image is drawn at', () => {
    expect(scaledSizes('(min-width: 640px) 600px, 100vw', 1)).toBe('(min-width: 640px) 600px, 100vw');
    expect(scaledSizes('(min-width: 640px) 600px, 100vw', 4.1885)).toBe(
      '(min-width: 640px) calc(600px * 4.189), calc(100vw * 4.189)',
    );
  });
});
