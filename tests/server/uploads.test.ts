import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_QUEUED_PER_USER } from '../../lib/limits';
import { TEXTS } from '../../lib/texts';
import type { UploadResult } from '../../lib/types';
import {
  deferredWritesSettled,
  findMediaByUrl,
  imageInfoOf,
  mediaService,
  pendingVariants,
} from '../../server/media/service';
import { IMAGE_ERRORS, imageJobs } from '../../server/media/pipeline';
import type { MediaStorage } from '../../server/media/storage';
import { localStorage } from '../../server/media/localStorage';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type JpegShape, zeroJpeg } from './memory/jpegShapes';
import { zeroPng } from './memory/pngShapes';
import { makeJpeg, multipartBody, postUpload } from './multipart';
import { freePort } from './remoteServer';

const PNGSUITE = path.resolve(import.meta.dirname, '../fixtures/pngsuite/png');

let t: TestApp;
let alice: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });
const upload = (data: Buffer, preset: string | null = 'post', file: { filename?: string; contentType?: string } = {}) =>
  postUpload(t.app, alice, { data, ...file }, preset);

/** Every file under the media folder, relative to it. */
function mediaFiles(): string[] {
  if (!existsSync(t.config.mediaDir)) return [];
  return readdirSync(t.config.mediaDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(t.config.mediaDir, path.join(entry.parentPath, entry.name)));
}

const mediaRows = () => t.db.kysely.selectFrom('media').selectAll().execute();
/** Every variant of an upload, once the ones written after the answer are stored too. */
const variantsOf = async (id: string) => {
  await deferredWritesSettled();
  return listedVariants(id);
};
const listedVariants = async (id: string) =>
  JSON.parse(
    (await t.db.kysely.selectFrom('media').select('variants').where('id', '=', id).executeTakeFirstOrThrow()).variants,
  ) as { key: string; width: number; height: number; format: string; bytes: number }[];

/** GETs a media URL, checks the serving headers, and returns the decoded image's metadata. */
async function fetchImage(url: string) {
  const res = await get(url);
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const meta = await sharp(res.rawPayload).metadata();
  expect(res.headers['content-type']).toBe(`image/${meta.format}`);
  return { meta, bytes: res.rawPayload };
}

const srcsetUrls = (srcset: string) => srcset.split(', ').map((candidate) => candidate.split(' ')[0]);

/** A PNG whose header claims `width`×`height` but whose file is a few dozen bytes. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('POST /api/uploads: accepted images', () => {
  it('stores a JPEG as WebP + JPEG variants, records a media row and serves every URL', async () => {
    const res = await upload(await makeJpeg(1600, 1200), 'post');
    expect(res.statusCode).toBe(201);
    const body = res.json() as UploadResult;
    expect(body).toEqual({
      secure_url: `/media/post/${body.public_id}/1080.jpg`,
      // Random (a version-4 UUID), not time-ordered: the files of a post for followers cannot be
      // found by guessing their address (issue 70).
      public_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      width: 1080,
      height: 810,
      format: 'jpg',
      bytes: expect.any(Number),
      thumbhash: expect.any(String),
    });
    expect(Buffer.from(body.thumbhash!, 'base64').length).toBeGreaterThan(5);

    const main = await fetchImage(body.secure_url);
    expect(main.meta).toMatchObject({ format: 'jpeg', width: 1080, height: 810 });
    expect(main.bytes.length).toBe(body.bytes);

    await deferredWritesSettled();
    const row = await t.db.kysely
      .selectFrom('media')
      .selectAll()
      .where('id', '=', body.public_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      owner_id: alice.id,
      preset: 'post',
      storage_key: `post/${body.public_id}/1080.jpg`,
      width: 1080,
      height: 810,
    });
    const variants = await variantsOf(body.public_id);
    expect(variants.map((v) => `${v.format} ${v.width}x${v.height}`).sort()).toEqual([
      'jpg 1080x810',
      'jpg 540x405',
      'webp 1080x810',
      'webp 540x405',
    ]);
    for (const v of variants) expect(existsSync(path.join(t.config.mediaDir, v.key))).toBe(true);

    const info = imageInfoOf(row, localStorage(t.config.mediaDir, t.config.mediaBaseUrl));
    expect(info.srcset).toBe(
      `/media/post/${body.public_id}/540.webp 540w, /media/post/${body.public_id}/1080.webp 1080w`,
    );
    for (const [i, url] of srcsetUrls(info.srcset).entries()) {
      const { meta } = await fetchImage(url);
      expect(meta).toMatchObject({ format: 'webp', width: [540, 1080][i] });
    }
  });

  it('keeps a PNG with transparency as PNG (fallback) and WebP with alpha', async () => {
    const png = await sharp({
      create: { width: 300, height: 200, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const res = await upload(png, 'post', { filename: 'a.png', contentType: 'image/png' });
    expect(res.statusCode).toBe(201);
    const body = res.json() as UploadResult;
    expect(body).toMatchObject({ width: 300, height: 200, format: 'png' });
    expect((await fetchImage(body.secure_url)).meta).toMatchObject({ format: 'png', hasAlpha: true });
    const webp = (await variantsOf(body.public_id)).find((v) => v.format === 'webp')!;
    expect((await fetchImage(`/media/${webp.key}`)).meta).toMatchObject({ format: 'webp', hasAlpha: true, width: 300 });
  });

  it('crops avatars to squares and banners to 3:1', async () => {
    const avatar = (await upload(await makeJpeg(800, 600), 'avatar')).json() as UploadResult;
    expect(avatar).toMatchObject({ width: 400, height: 400 });
    expect((await variantsOf(avatar.public_id)).map((v) => `${v.width}x${v.height}`).sort()).toEqual([
      '160x160',
      '160x160',
      '400x400',
      '400x400',
    ]);

    const banner = (await upload(await makeJpeg(2000, 1000), 'banner')).json() as UploadResult;
    expect(banner).toMatchObject({ width: 1500, height: 500 });
    expect((await variantsOf(banner.public_id)).map((v) => `${v.width}x${v.height}`).sort()).toEqual([
      '1500x500',
      '1500x500',
      '750x250',
      '750x250',
    ]);
  });

  it('never upscales: a 50×40 image stays 50×40, written once per format', async () => {
    const res = await upload(await makeJpeg(50, 40), 'post');
    const body = res.json() as UploadResult;
    expect(body).toMatchObject({ width: 50, height: 40 });
    expect((await variantsOf(body.public_id)).map((v) => `${v.format} ${v.width}x${v.height}`).sort()).toEqual([
      'jpg 50x40',
      'webp 50x40',
    ]);
    expect((await fetchImage(body.secure_url)).meta).toMatchObject({ width: 50, height: 40 });

    const small = (await upload(await makeJpeg(120, 90), 'avatar')).json() as UploadResult;
    expect((await variantsOf(small.public_id)).map((v) => `${v.width}x${v.height}`)).toEqual(['90x90', '90x90']);
  });

  it('accepts the preset before the file', async () => {
    const form = multipartBody([
      { name: 'upload_preset', value: 'avatar' },
      { name: 'file', filename: 'me.jpg', contentType: 'image/jpeg', data: await makeJpeg(500, 500) },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      payload: form.payload,
      headers: { ...form.headers, ...alice.headers },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ width: 400, height: 400 });
  });

  it('strips EXIF, including GPS, from every variant but keeps the colour profile', async () => {
    const input = await sharp(await makeJpeg(200, 100))
      .withExif({ IFD0: { Artist: 'Alice' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2914/100' } })
      .withIccProfile('p3')
      .jpeg()
      .toBuffer();
    const inputMeta = await sharp(input).metadata();
    const inputExif = inputMeta.exif!;
    expect(inputExif.includes('Alice')).toBe(true);
    expect(inputExif.includes(Buffer.from([0x88, 0x25])) || inputExif.includes(Buffer.from([0x25, 0x88]))).toBe(true); // GPS IFD pointer

    const body = (await upload(input)).json() as UploadResult;
    for (const v of await variantsOf(body.public_id)) {
      const { meta, bytes } = await fetchImage(`/media/${v.key}`);
      expect(meta.exif).toBeUndefined();
      expect(meta.icc?.equals(inputMeta.icc!), v.key).toBe(true);
      expect(bytes.includes('Alice')).toBe(false);
      expect(bytes.includes('Exif')).toBe(false);
    }
  });

  it('applies the EXIF orientation', async () => {
    // Left half red, right half blue; orientation 6 means "rotate 90° clockwise to display".
    const raw = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#00f' } })
      .composite([{ input: { create: { width: 30, height: 40, channels: 3, background: '#f00' } }, left: 0, top: 0 }])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(raw).metadata()).orientation).toBe(6);
    const body = (await upload(raw)).json() as UploadResult;
    expect(body).toMatchObject({ width: 40, height: 60 });
    const { bytes, meta } = await fetchImage(body.secure_url);
    expect(meta.orientation).toBeUndefined();
    const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 40 + x) * 3, (y * 40 + x) * 3 + 3)];
    expect(pixel(20, 5)[0]).toBeGreaterThan(200); // top is red
    expect(pixel(20, 55)[2]).toBeGreaterThan(200); // bottom is blue
  });
});

describe('POST /api/uploads: refusals', () => {
  it.each([
    ['a text file named .jpg', Buffer.from('just some text, not an image at all'), 'notes.jpg', 'image/jpeg'],
    [
      'an SVG',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'),
      'x.svg',
      'image/svg+xml',
    ],
    [
      'a GIF declared as PNG',
      Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'),
      'x.png',
      'image/png',
    ],
    // Issue 68: 1 KB whose decoder would hold 860 MB. Uploads never hand an AVIF to libvips.
    [
      'an AVIF of 7,000 × 7,000',
      readFileSync(path.resolve(import.meta.dirname, '../fixtures/remote/7000x7000.avif')),
      'x.avif',
      'image/avif',
    ],
  ])('refuses %s with 415', async (_name, data, filename, contentType) => {
    const res = await upload(data, 'post', { filename, contentType });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: TEXTS.allowedFormats, code: 'UnsupportedMediaType' });
  });

  it('refuses a truncated JPEG with 400', async () => {
    const jpeg = await makeJpeg(400, 300);
    const res = await upload(jpeg.subarray(0, Math.floor(jpeg.length * 0.6)));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: IMAGE_ERRORS.corruptImage, code: 'CorruptImage' });
  });

  it('refuses a file of exactly 4194304 bytes with 413, and reads one byte less', async () => {
    const tooBig = Buffer.alloc(UPLOAD_MAX_BYTES, 0xff);
    const res = await upload(tooBig);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: TEXTS.fileTooBig, code: 'PayloadTooLarge' });
    // One byte less passes the size limit and reaches the type check.
    expect((await upload(tooBig.subarray(1))).statusCode).toBe(415);
  });

  it('refuses a body declared larger than the limit before reading it', async () => {
    // The body itself is a fine small upload: only the declared length can cause the refusal.
    const form = multipartBody([
      { name: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data: await makeJpeg() },
      { name: 'upload_preset', value: 'post' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      payload: form.payload,
      headers: { ...form.headers, ...alice.headers, 'content-length': String(UPLOAD_MAX_BYTES * 2) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: TEXTS.fileTooBig, code: 'PayloadTooLarge' });
  });

  it('refuses a small PNG declaring 30000×30000 pixels with 400', async () => {
    const flood = pngDeclaring(30000, 30000);
    expect(flood.length).toBeLessThan(100);
    const res = await upload(flood, 'post', { filename: 'flood.png', contentType: 'image/png' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: IMAGE_ERRORS.tooManyPixels, code: 'ImageTooLarge' });
  });

  // Their decoders hold the whole image (PNG) or every coefficient (JPEG): tests/server/imageMemory.test.ts.
  const jpeg = (width: number, space: JpegShape['space'], chroma: JpegShape['chroma'], progressive = true) =>
    zeroJpeg({ format: 'jpeg', width, height: width, space, chroma, progressive });
  it.each([
    ['a 7071² progressive CMYK JPEG', () => jpeg(7_071, 'cmyk', '4:4:4'), IMAGE_ERRORS.tooLargeProgressive('12.5')],
    ['a 4100² progressive 4:4:4 JPEG', () => jpeg(4_100, 'srgb', '4:4:4'), IMAGE_ERRORS.tooLargeProgressive('16.6')],
    ['a 5800² progressive 4:2:0 JPEG', () => jpeg(5_800, 'srgb', '4:2:0'), IMAGE_ERRORS.tooLargeProgressive('33.3')],
    [
      'a 3000² interlaced 16-bit RGBA PNG',
      () => zeroPng({ width: 3_000, height: 3_000, depth: 16, colorType: 6, interlaced: true }),
      IMAGE_ERRORS.tooLargeInterlaced('8'),
    ],
    [
      'a 4700² interlaced 8-bit RGB PNG',
      () => zeroPng({ width: 4_700, height: 4_700, depth: 8, colorType: 2, interlaced: true }),
      IMAGE_ERRORS.tooLargeInterlaced('21.3'),
    ],
  ])('refuses %s with 400 and says how to save it instead', async (_name, build, message) => {
    const res = await upload(await build());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'ImageTooLarge' });
  });

  it('accepts the same pictures saved baseline or non-interlaced', async () => {
    const baseline = await upload(jpeg(7_071, 'cmyk', '4:4:4', false));
    expect(baseline.statusCode).toBe(201);
    const flat = await upload(await zeroPng({ width: 3_000, height: 3_000, depth: 16, colorType: 6 }));
    expect(flat.statusCode).toBe(201);
    expect([baseline.json<UploadResult>().width, flat.json<UploadResult>().width]).toEqual([1080, 1080]);
  });

  it('answers 401 without a session', async () => {
    const res = await postUpload(t.app, null, { data: await makeJpeg() });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: TEXTS.notLoggedIn, code: 'Unauthorized' });
  });

  it.each([[null], ['profile'], ['']])('answers 400 for the preset %j', async (preset) => {
    const res = await upload(await makeJpeg(), preset);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'upload_preset must be one of: avatar, post, banner',
      code: 'ValidationError',
    });
  });

  it('answers 400 without a file', async () => {
    const form = multipartBody([{ name: 'upload_preset', value: 'post' }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      payload: form.payload,
      headers: { ...form.headers, ...alice.headers },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'file is required', code: 'ValidationError' });
  });

  it('answers 415 for a body that is not multipart', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      payload: { file: 'x', upload_preset: 'post' },
      headers: alice.headers,
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({
      code: 'UnsupportedMediaType',
      message: expect.stringContaining('multipart/form-data'),
    });
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      payload: await makeJpeg(),
      headers: { ...alice.headers, 'content-type': 'image/jpeg' },
    });
    expect(raw.statusCode).toBe(415);
    expect(raw.json()).toMatchObject({ code: 'UnsupportedMediaType', message: expect.any(String) });
  });

  it('answers 400 for a malformed multipart body', async () => {
    const form = multipartBody([
      { name: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data: await makeJpeg() },
    ]);
    const cut = form.payload.subarray(0, form.payload.length - 40);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      payload: cut,
      headers: { ...form.headers, ...alice.headers },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ValidationError', message: expect.any(String) });
  });
});

describe('PngSuite', () => {
  const files = readdirSync(PNGSUITE)
    .filter((name) => name.endsWith('.png'))
    .sort();
  const valid = files.filter((name) => !name.startsWith('x'));
  const corrupt = files.filter((name) => name.startsWith('x'));

  it('has the fixtures', () => {
    expect(valid.length).toBeGreaterThan(150);
    expect(corrupt.length).toBeGreaterThan(10);
  });

  it('accepts every valid file and writes a decodable image of the same size', async () => {
    for (const name of valid) {
      const input = readFileSync(path.join(PNGSUITE, name));
      const source = await sharp(input).metadata();
      const res = await upload(input, 'post', { filename: name, contentType: 'image/png' });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
      const body = res.json() as UploadResult;
      expect([body.width, body.height], name).toEqual([source.width, source.height]);
      const { meta } = await fetchImage(body.secure_url);
      expect([meta.width, meta.height], name).toEqual([source.width, source.height]);
    }
  });

  it('refuses every corrupt file with a 4xx and a message, leaving no file or row behind', async () => {
    await deferredWritesSettled();
    const filesBefore = mediaFiles().sort();
    const foldersBefore = readdirSync(path.join(t.config.mediaDir, 'post')).sort();
    const rowsBefore = (await mediaRows()).length;
    for (const name of corrupt) {
      const res = await upload(readFileSync(path.join(PNGSUITE, name)), 'post', {
        filename: name,
        contentType: 'image/png',
      });
      expect(res.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, name).toBeLessThan(500);
      expect(res.json(), name).toEqual({ message: expect.any(String), code: expect.any(String) });
    }
    expect(mediaFiles().sort()).toEqual(filesBefore);
    expect(readdirSync(path.join(t.config.mediaDir, 'post')).sort()).toEqual(foldersBefore);
    expect((await mediaRows()).length).toBe(rowsBefore);
  });
});

describe('mediaService.upload', () => {
  it('removes the files it wrote when the row cannot be inserted', async () => {
    const storage = localStorage(t.config.mediaDir, t.config.mediaBaseUrl);
    const filesBefore = mediaFiles().sort();
    const foldersBefore = readdirSync(path.join(t.config.mediaDir, 'post')).sort();
    const rowsBefore = (await mediaRows()).length;
    // No such owner: the foreign key refuses the row after every variant was written.
    const failing = mediaService({ db: t.db.kysely, storage }).upload(
      '0190a000-0000-7000-8000-00000000dead',
      'post',
      await makeJpeg(800, 600),
    );
    await expect(failing).rejects.toThrow();
    expect(mediaFiles().sort()).toEqual(filesBefore);
    expect(readdirSync(path.join(t.config.mediaDir, 'post')).sort()).toEqual(foldersBefore);
    expect((await mediaRows()).length).toBe(rowsBefore);
  });
});

describe('mediaService.upload with deferVariants (what POST /api/uploads uses)', () => {
  /** Local storage whose writes of anything but the main file wait for `open()`, or fail. */
  function gatedStorage(failOthers = false) {
    const inner = localStorage(t.config.mediaDir, t.config.mediaBaseUrl);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const storage: MediaStorage = {
      ...inner,
      async put(key, bytes, contentType) {
        if (!key.endsWith('/1080.jpg')) {
          await gate;
          if (failOthers) throw new Error('disk full');
        }
        return inner.put(key, bytes, contentType);
      },
    };
    return { storage, open };
  }
  const filesOf = (id: string) =>
    mediaFiles()
      .filter((f) => f.includes(id))
      .map((f) => path.basename(f))
      .sort();

  it('answers with the main variant stored and listed, and lists the others once they are stored', async () => {
    const { storage, open } = gatedStorage();
    const service = mediaService({ db: t.db.kysely, storage, deferVariants: true });
    const body = await service.upload(alice.id, 'post', await makeJpeg(1600, 1200));
    expect(body).toMatchObject({ width: 1080, height: 810, format: 'jpg', thumbhash: expect.any(String) });
    expect(pendingVariants(`post/${body.public_id}/1080.webp`)).toBeDefined();
    // Nothing refers to a file not yet written: the row lists the main variant only.
    expect((await listedVariants(body.public_id)).map((v) => `${v.format} ${v.width}`)).toEqual(['jpg 1080']);
    expect(filesOf(body.public_id)).toEqual(['1080.jpg']);

    // A post made with the image now waits for the other variants.
    let found = false;
    const lookup = findMediaByUrl(t.db.kysely, storage, body.secure_url).then((row) => {
      found = true;
      return row;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(found).toBe(false);
    open();
    const row = await lookup;
    expect(
      (JSON.parse(row!.variants) as { format: string; width: number }[]).map((v) => `${v.format} ${v.width}`).sort(),
    ).toEqual(['jpg 1080', 'jpg 540', 'webp 1080', 'webp 540']);
    expect(filesOf(body.public_id)).toEqual(['1080.jpg', '1080.webp', '540.jpg', '540.webp']);
    expect(pendingVariants(`post/${body.public_id}/1080.webp`)).toBeUndefined();
  });

  it('keeps the upload with its main variant when storing the others fails, and leaves none of them behind', async () => {
    const { storage, open } = gatedStorage(true);
    const errors: unknown[] = [];
    const service = mediaService({
      db: t.db.kysely,
      storage,
      deferVariants: true,
      onDeferredError: (error) => errors.push(error),
    });
    const body = await service.upload(alice.id, 'post', await makeJpeg(1600, 1200));
    open();
    await deferredWritesSettled();
    expect(errors).toHaveLength(1);
    expect((await listedVariants(body.public_id)).map((v) => `${v.format} ${v.width}`)).toEqual(['jpg 1080']);
    expect(filesOf(body.public_id)).toEqual(['1080.jpg']);
    expect((await fetchImage(body.secure_url)).meta).toMatchObject({ format: 'jpeg', width: 1080 });
  });

  it('serves a variant requested right after the upload answered', async () => {
    const body = (await upload(await makeJpeg(1600, 1200))).json() as UploadResult;
    // Not listed anywhere yet, but a guessed URL still gets the file, not a 404.
    const { meta } = await fetchImage(`/media/post/${body.public_id}/540.webp`);
    expect(meta).toMatchObject({ format: 'webp', width: 540, height: 405 });
  });
});

describe('media lookups', () => {
  it('finds an upload by its main URL only', async () => {
    const storage = localStorage(t.config.mediaDir, t.config.mediaBaseUrl);
    const body = (await upload(await makeJpeg(800, 600))).json() as UploadResult;
    expect((await findMediaByUrl(t.db.kysely, storage, body.secure_url))?.id).toBe(body.public_id);
    expect(await findMediaByUrl(t.db.kysely, storage, body.secure_url.replace('.jpg', '.webp'))).toBeUndefined();
    expect(await findMediaByUrl(t.db.kysely, storage, `https://elsewhere.example${body.secure_url}`)).toBeUndefined();
    expect(await findMediaByUrl(t.db.kysely, storage, '/media/')).toBeUndefined();
  });
});

describe('GET /media/*', () => {
  it('answers 404 JSON for a missing file', async () => {
    const res = await get('/media/post/0190a000-0000-7000-8000-000000000000/1080.jpg');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: expect.any(String), code: 'NotFound' });
  });

  it('never serves a file outside the media folder', async () => {
    // A file that must stay private, next to the media folder, and one of another type inside it.
    writeFileSync(path.join(t.dataDir, 'private.png'), 'secret');
    writeFileSync(path.join(t.config.mediaDir, 'notes.txt'), 'secret');
    for (const url of [
      '/media/../private.png',
      '/media/..%2fprivate.png',
      '/media/%2e%2e/private.png',
      '/media/%2e%2e%2fprivate.png',
      '/media/post/..%2f..%2fprivate.png',
      '/media/%2fetc%2fpasswd',
      '/media//etc/passwd',
      '/media/..%5cprivate.png',
      '/media/notes.txt',
      `/media/${encodeURIComponent(path.join(t.dataDir, 'private.png'))}`,
    ]) {
      const res = await get(url);
      expect([400, 404], url).toContain(res.statusCode);
      expect(res.body, url).not.toContain('secret');
    }
  });
});

describe('rate limit', () => {
  it('answers 429 after the per-user limit, per user', async () => {
    const limited = await createTestApp({ RATE_LIMIT_UPLOADS_PER_USER: '2' });
    try {
      const bob = await signIn(limited.app);
      const carol = await signIn(limited.app);
      const jpeg = await makeJpeg();
      expect((await postUpload(limited.app, bob, { data: jpeg })).statusCode).toBe(201);
      expect((await postUpload(limited.app, bob, { data: jpeg })).statusCode).toBe(201);
      const third = await postUpload(limited.app, bob, { data: jpeg });
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({ code: 'RateLimited' });
      expect(third.headers['retry-after']).toBeDefined();
      expect((await postUpload(limited.app, carol, { data: jpeg })).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('image queue', () => {
  /** Holds the only image job slot until the returned function is called. */
  const holdSlot = () => imageJobs.acquire('test-holder');
  const queued = (user: SignedInUser, count: number) =>
    vi.waitFor(() => expect(imageJobs.pending(user.id)).toBe(count), { timeout: 30_000, interval: 10 });

  it("takes a user's small upload before the rest of another user's batch", async () => {
    const batcher = await signIn(t.app);
    const other = await signIn(t.app);
    const release = await holdSlot();
    const jpeg = await makeJpeg(800, 600);
    // The order the uploads are answered in: each is answered once its job has had the one slot.
    const answered: string[] = [];
    const upload = (user: SignedInUser, data: Buffer, name: string) =>
      postUpload(t.app, user, { data }).then((res) => {
        answered.push(name);
        return res;
      });
    const batch = [1, 2, 3].map(() => upload(batcher, jpeg, 'batch'));
    await queued(batcher, 3);
    const small = upload(other, await makeJpeg(64, 64), 'small');
    await queued(other, 1);
    release();
    const statuses = (await Promise.all([...batch, small])).map((r) => r.statusCode);
    expect(statuses).toEqual([201, 201, 201, 201]);
    expect(answered).toEqual(['batch', 'small', 'batch', 'batch']);
  });

  it("refuses a user's upload past the queued limit with 429, and takes other users' uploads", async () => {
    const batcher = await signIn(t.app);
    const other = await signIn(t.app);
    const release = await holdSlot();
    const jpeg = await makeJpeg();
    const batch = Array.from({ length: UPLOAD_MAX_QUEUED_PER_USER }, () => postUpload(t.app, batcher, { data: jpeg }));
    await queued(batcher, UPLOAD_MAX_QUEUED_PER_USER);
    const refused = await postUpload(t.app, batcher, { data: jpeg });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: IMAGE_ERRORS.tooManyQueued, code: 'TooManyUploadsQueued' });
    expect(refused.headers['retry-after']).toBe('5');
    const others = postUpload(t.app, other, { data: jpeg });
    await queued(other, 1);
    release();
    expect((await Promise.all([...batch, others])).map((r) => r.statusCode)).toEqual(
      Array.from({ length: UPLOAD_MAX_QUEUED_PER_USER + 1 }, () => 201),
    );
    // Once the batch is done, the same user may upload again.
    await deferredWritesSettled();
    expect((await postUpload(t.app, batcher, { data: jpeg })).statusCode).toBe(201);
  });

  it("refuses a user's upload past the limit before reading its body (an album's files sent at once)", async () => {
    const batcher = await signIn(t.app);
    const release = await holdSlot();
    const jpeg = await makeJpeg();
    const batch = Array.from({ length: UPLOAD_MAX_QUEUED_PER_USER }, () => postUpload(t.app, batcher, { data: jpeg }));
    await queued(batcher, UPLOAD_MAX_QUEUED_PER_USER);
    // A body that never ends: only a refusal made before reading it can answer.
    const endless = new PassThrough();
    endless.write('------never-ending\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { ...batcher.headers, 'content-type': 'multipart/form-data; boundary=----never-ending' },
      payload: endless,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'TooManyUploadsQueued' });
    release();
    expect((await Promise.all(batch)).map((r) => r.statusCode)).toEqual(
      Array.from({ length: UPLOAD_MAX_QUEUED_PER_USER }, () => 201),
    );
  });

  it('stops counting an upload whose client went away in the middle of its body', async () => {
    // Its own app: the probes below would soon meet the per-minute upload limit.
    const own = await createTestApp({ RATE_LIMIT_UPLOADS_PER_USER: '100000' });
    try {
      const port = await freePort();
      await own.app.listen({ host: '127.0.0.1', port });
      const batcher = await signIn(own.app);
      const release = await holdSlot();
      const jpeg = await makeJpeg();
      const batch = Array.from({ length: UPLOAD_MAX_QUEUED_PER_USER - 1 }, () =>
        postUpload(own.app, batcher, { data: jpeg }),
      );
      await queued(batcher, UPLOAD_MAX_QUEUED_PER_USER - 1);
      // The last upload allowed at once, over a socket: its headers and the start of its body.
      const { payload, headers } = multipartBody([
        { name: 'upload_preset', value: 'post' },
        { name: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data: jpeg },
      ]);
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${batcher.headers.cookie}\r\n` +
          `Content-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`,
      );
      socket.write(payload.subarray(0, 100));
      // A form without a file: 400 once let in (it never waits for the queue), 429 while the door is full.
      const probe = async () => {
        const res = await postUpload(own.app, batcher, { data: Buffer.alloc(0) }, null);
        return `${res.statusCode} ${res.json().code}`;
      };
      const until = (answer: string) =>
        vi.waitFor(async () => expect(await probe()).toBe(answer), { timeout: 30_000, interval: 20 });
      await until('429 TooManyUploadsQueued');
      socket.destroy();
      await until('400 ValidationError');
      release();
      expect((await Promise.all(batch)).map((r) => r.statusCode)).toEqual(
        Array.from({ length: UPLOAD_MAX_QUEUED_PER_USER - 1 }, () => 201),
      );
    } finally {
      await own.close();
    }
  });
});
