/**
 * The S3 storage driver against a real S3 server: Ceph's RADOS Gateway started by
 * `scripts/services/s3.sh start`. With TEST_S3=1 (`.ci/run` always sets it) these tests read the
 * gateway's settings from `scripts/services/s3.sh env` and fail when it is not running; without
 * TEST_S3 only the configuration checks run.
 */
import { type IncomingHttpHeaders, createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { loadConfig } from '../../server/config';
import { deferredWritesSettled } from '../../server/media/service';
import { STORAGE_UNAVAILABLE, s3Storage } from '../../server/media/s3Storage';
import { removeUnusedMedia } from '../../server/media/unusedMedia';
import { createPost, uploadImages } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { makeJpeg, postUpload, uploadImage } from './multipart';
import { s3GatewayEnv } from './s3Gateway';

const gatewayEnv = s3GatewayEnv();

describe('S3 configuration', () => {
  const base = { DATA_DIR: path.join(import.meta.dirname, 'unused'), JWT_SECRET: 'x'.repeat(32) };
  const s3 = {
    ...base,
    S3_BUCKET: 'media',
    S3_ENDPOINT: 'http://127.0.0.1:7480',
    S3_ACCESS_KEY_ID: 'key',
    S3_SECRET_ACCESS_KEY: 'secret',
    MEDIA_BASE_URL: 'http://127.0.0.1:7480/media/',
  };

  it('is off without S3_BUCKET, and reads every variable with their defaults when it is set', () => {
    expect(loadConfig(base).s3).toBeNull();
    const config = loadConfig(s3);
    expect(config.s3).toEqual({
      endpoint: 'http://127.0.0.1:7480',
      region: 'us-east-1',
      bucket: 'media',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      forcePathStyle: false,
    });
    expect(config.mediaBaseUrl).toBe('http://127.0.0.1:7480/media');
    expect(loadConfig({ ...s3, S3_REGION: 'eu-west-3', S3_FORCE_PATH_STYLE: 'true' }).s3).toMatchObject({
      region: 'eu-west-3',
      forcePathStyle: true,
    });
    // No keys: the SDK's own credential chain (AWS_* variables, instance roles).
    expect(loadConfig({ ...s3, S3_ACCESS_KEY_ID: '', S3_SECRET_ACCESS_KEY: '' }).s3?.credentials).toBeUndefined();
  });

  it('refuses a setup that could not work, at start, with the variable to fix', () => {
    expect(() => loadConfig({ ...s3, MEDIA_BASE_URL: undefined })).toThrow(/MEDIA_BASE_URL must be the public http/);
    expect(() => loadConfig({ ...s3, MEDIA_BASE_URL: '/media' })).toThrow(/MEDIA_BASE_URL must be the public http/);
    expect(() => loadConfig({ ...s3, S3_SECRET_ACCESS_KEY: '' })).toThrow(/must be set together/);
    expect(() => loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      /S3_FORCE_PATH_STYLE must be true or false/,
    );
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: '127.0.0.1:7480' })).toThrow(/S3_ENDPOINT must be a URL/);
  });
});

describe('S3 requests', () => {
  it('carry the bytes as they are, with no checksum the server did not ask for', async () => {
    // Any server will do to see what the driver sends; several S3-compatible ones mishandle the
    // SDK's default checksums, so none may be sent for a plain write.
    const seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
    const server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { etag: '"0"' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const storage = s3Storage(
      {
        endpoint: `http://127.0.0.1:${port}`,
        region: 'us-east-1',
        bucket: 'media',
        credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
        forcePathStyle: true,
      },
      `http://127.0.0.1:${port}/media`,
    );
    try {
      const bytes = Buffer.from('the exact bytes of a variant');
      await storage.put('post/id/1080.webp', bytes, 'image/webp');
      expect(seen).toHaveLength(1);
      const [put] = seen;
      expect([put.method, put.url?.split('?')[0]]).toEqual(['PUT', '/media/post/id/1080.webp']);
      expect(put.body.equals(bytes)).toBe(true);
      expect(put.headers['content-type']).toBe('image/webp');
      expect(
        Object.keys(put.headers).filter((name) => name.startsWith('x-amz-checksum') || name === 'x-amz-trailer'),
      ).toEqual([]);
      expect(put.headers['content-encoding']).toBeUndefined();
      expect(storage.url('post/id/1080.webp')).toBe(`http://127.0.0.1:${port}/media/post/id/1080.webp`);
    } finally {
      storage.close?.();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe.skipIf(!gatewayEnv)('S3 storage on the RADOS Gateway', () => {
  // Collected (not run) without the gateway too.
  const env = gatewayEnv ?? {};
  let bucket: S3Client;
  let t: TestApp;
  let alice: SignedInUser;
  beforeAll(async () => {
    bucket = new S3Client({
      endpoint: env.S3_ENDPOINT,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
    });
    t = await createTestApp(env);
    alice = await signIn(t.app);
  });
  afterAll(async () => {
    await t?.close();
    bucket?.destroy();
  });

  /** The keys stored in the bucket for one upload (`<preset>/<mediaId>/...`). */
  async function objectsOf(upload: { secure_url: string }): Promise<string[]> {
    const key = upload.secure_url.slice(env.MEDIA_BASE_URL.length + 1);
    const listed = await bucket.send(
      new ListObjectsV2Command({ Bucket: env.S3_BUCKET, Prefix: key.slice(0, key.lastIndexOf('/') + 1) }),
    );
    return (listed.Contents ?? []).map((object) => object.Key!).sort();
  }
  const variantsOf = async (id: string) => {
    await deferredWritesSettled();
    const row = await t.db.kysely.selectFrom('media').select('variants').where('id', '=', id).executeTakeFirst();
    return row ? (JSON.parse(row.variants) as { key: string; width: number; format: string; bytes: number }[]) : [];
  };
  const sweep = async () => {
    await deferredWritesSettled();
    return removeUnusedMedia(t.db.kysely, t.app.ctx.storage, new Date(Date.now() + 1_000));
  };

  it('stores every variant in the bucket as sent, and anyone can read it at MEDIA_BASE_URL; this server serves no /media', async () => {
    const upload = await uploadImage(t.app, alice, 'post');
    expect(upload.secure_url.startsWith(`${env.MEDIA_BASE_URL}/post/${upload.public_id}/`)).toBe(true);
    const variants = await variantsOf(upload.public_id);
    expect(variants.length).toBeGreaterThan(1);
    expect(await objectsOf(upload)).toEqual(variants.map((v) => v.key).sort());
    for (const variant of variants) {
      // Read as a browser would: no credentials, straight from the gateway.
      const res = await fetch(`${env.MEDIA_BASE_URL}/${variant.key}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const body = Buffer.from(await res.arrayBuffer());
      // Exactly the encoded file: no checksum trailer or chunk framing stored with it.
      expect(body.length).toBe(variant.bytes);
      const meta = await sharp(body).metadata();
      expect(res.headers.get('content-type')).toBe(`image/${meta.format}`);
      expect([meta.format, meta.width]).toEqual([variant.format.replace('jpg', 'jpeg'), variant.width]);
    }
    const key = upload.secure_url.slice(env.MEDIA_BASE_URL.length + 1);
    expect((await t.app.inject({ method: 'GET', url: `/media/${key}` })).statusCode).toBe(404);
  });

  it('reads an object back as a stream (the data export), and a missing key as a missing file', async () => {
    const upload = await uploadImage(t.app, alice, 'post');
    const [variant] = await variantsOf(upload.public_id);
    const read = async (key: string) => {
      const chunks: Buffer[] = [];
      for await (const chunk of t.app.ctx.storage.read(key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    const bytes = await read(variant.key);
    const served = Buffer.from(await (await fetch(`${env.MEDIA_BASE_URL}/${variant.key}`)).arrayBuffer());
    expect(bytes.equals(served)).toBe(true);
    await expect(read(`post/${upload.public_id}/missing.webp`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('lets a post and a profile use bucket URLs, and lists the post image variants at the bucket', async () => {
    // Large enough for several sizes in the srcset.
    const uploaded = await postUpload(t.app, alice, { data: await makeJpeg(1600, 1200) }, 'post');
    expect(uploaded.statusCode).toBe(201);
    const image = uploaded.json<{ secure_url: string; public_id: string }>();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/posts/create',
      headers: alice.headers,
      payload: { message: 'From the bucket', tags: ['s3'], image: image.secure_url },
    });
    expect(created.statusCode).toBe(201);
    const post = (
      await t.app.inject({ method: 'GET', url: `/api/posts/${created.json()._id}`, headers: alice.headers })
    ).json();
    expect(post.image).toBe(image.secure_url);
    const candidates = (post.imageInfo.srcset as string).split(', ').map((c) => c.split(' ')[0]);
    expect(candidates.length).toBeGreaterThan(1);
    for (const url of candidates) {
      expect(url.startsWith(`${env.MEDIA_BASE_URL}/post/${image.public_id}/`)).toBe(true);
      expect((await fetch(url)).status).toBe(200);
    }

    const avatar = await uploadImage(t.app, alice, 'avatar');
    const updated = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: alice.headers,
      payload: { avatar: avatar.secure_url },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().user.avatar).toBe(avatar.secure_url);
    // A URL on the gateway that is not one of our uploads is still refused.
    const madeUp = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: alice.headers,
      payload: { avatar: `${env.MEDIA_BASE_URL}/avatar/not-ours/96.webp` },
    });
    expect(madeUp.statusCode).toBe(400);
  });

  it('removes an unused upload from the bucket, and keeps the ones a post or a profile uses', async () => {
    const unused = await uploadImage(t.app, alice, 'post');
    const avatar = await uploadImage(t.app, alice, 'avatar');
    const image = await uploadImage(t.app, alice, 'post');
    await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: alice.headers,
      payload: { avatar: avatar.secure_url },
    });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/posts/create',
      headers: alice.headers,
      payload: { message: 'Kept', tags: ['s3'], image: image.secure_url },
    });
    expect(created.statusCode).toBe(201);
    expect(await objectsOf(unused)).not.toEqual([]);

    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await objectsOf(unused)).toEqual([]);
    expect(await variantsOf(unused.public_id)).toEqual([]);
    expect((await fetch(unused.secure_url)).status).not.toBe(200);
    for (const used of [avatar, image]) {
      expect(await objectsOf(used)).toEqual((await variantsOf(used.public_id)).map((v) => v.key).sort());
      expect((await fetch(used.secure_url)).status).toBe(200);
    }

    // Deleting the post takes its image out of the bucket at once, with no sweep.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${created.json()._id}/manage`,
      headers: alice.headers,
    });
    expect(deleted.statusCode).toBe(200);
    expect(await objectsOf(image)).toEqual([]);
    expect(await objectsOf(avatar)).not.toEqual([]);
  });

  it('deleting an album takes every file of every photo out of the bucket at once', async () => {
    const photos = await uploadImages(t.app, alice, 3);
    const created = await createPost(t.app, alice, { images: photos.map((p) => ({ image: p.secure_url })) });
    for (const photo of photos)
      expect(await objectsOf(photo)).toEqual((await variantsOf(photo.public_id)).map((v) => v.key).sort());

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${created._id}/manage`,
      headers: alice.headers,
    });
    expect(deleted.statusCode).toBe(200);
    for (const photo of photos) expect(await objectsOf(photo)).toEqual([]);
  });

  it("allows images from the bucket's origin in the Content-Security-Policy", async () => {
    const csp = String((await t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    const origin = new URL(env.MEDIA_BASE_URL).origin;
    expect(csp).toMatch(new RegExp(`img-src 'self' data: blob: ${origin}(;|$)`));
  });

  /** A port nothing listens on. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it.each([
    ['a stopped server', async () => ({ S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}` })],
    ['wrong keys', async () => ({ S3_SECRET_ACCESS_KEY: 'not-the-secret' })],
    ['a missing bucket', async () => ({ S3_BUCKET: 'no-such-bucket' })],
  ])('answers 503 with a clear message when the bucket refuses the write (%s), and keeps no row', async (_, wrong) => {
    const broken = await createTestApp({ ...env, ...(await wrong()) });
    try {
      const bob = await signIn(broken.app);
      const res = await postUpload(broken.app, bob, { data: await makeJpeg() }, 'post');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        message: STORAGE_UNAVAILABLE,
        code: 'StorageUnavailable',
        requestId: res.headers['x-request-id'],
      });
      await deferredWritesSettled();
      expect(await broken.db.kysely.selectFrom('media').selectAll().execute()).toEqual([]);
      // Nothing to post with: a post naming where the image would have been is refused, and none exists.
      const attempt = await broken.app.inject({
        method: 'POST',
        url: '/api/posts/create',
        headers: bob.headers,
        payload: { message: 'Lost', tags: ['s3'], image: `${broken.config.mediaBaseUrl}/post/unknown/1080.webp` },
      });
      expect(attempt.statusCode).toBe(400);
      expect(await broken.db.kysely.selectFrom('posts').selectAll().execute()).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});
