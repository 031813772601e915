/**
 * An album's files (issue 71): the unused-upload sweep keeps every photo of every post, a photo an
 * edit took out goes; deleting a post (or its author's account) removes every file of every photo at
 * once, but not an upload another post or a profile uses; the data export lists and holds every photo.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { deferredWritesSettled } from '../../server/media/service';
import { removeUnusedMedia } from '../../server/media/unusedMedia';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { createPost, editPost, sendPost, uploadImages } from './factories';
import { readZip } from './zip';

let t: TestApp;
let ann: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
});

describe("an album's files", () => {
  /** Sweeps every upload made until now. */
  async function sweep(): Promise<void> {
    await deferredWritesSettled();
    await removeUnusedMedia(t.db.kysely, t.app.ctx.storage, new Date(Date.now() + 1_000));
  }
  /** Whether the upload's row and its folder of files are there. */
  async function stored(upload: { public_id: string; secure_url: string }) {
    const row = await t.db.kysely
      .selectFrom('media')
      .select('id')
      .where('id', '=', upload.public_id)
      .executeTakeFirst();
    const key = upload.secure_url.slice(t.config.mediaBaseUrl.length + 1);
    return { row: row !== undefined, files: existsSync(path.join(t.config.mediaDir, path.dirname(key))) };
  }
  const kept = { row: true, files: true };
  const gone = { row: false, files: false };

  it('the unused-upload sweep keeps every photo of a post, a photo an edit took out goes, and a deleted post takes every file', async () => {
    const [a, b, c] = await uploadImages(t.app, ann, 3);
    const post = await createPost(t.app, ann, { images: [a, b, c].map((u) => ({ image: u.secure_url })) });
    await sweep();
    for (const upload of [a, b, c]) expect(await stored(upload)).toEqual(kept);

    expect(
      (await editPost(t.app, ann, post._id, { images: [{ image: c.secure_url }, { image: a.secure_url }] })).statusCode,
    ).toBe(200);
    await sweep();
    expect(await stored(b)).toEqual(gone);
    for (const upload of [a, c]) expect(await stored(upload)).toEqual(kept);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${post._id}/manage`,
      headers: ann.headers,
    });
    expect(deleted.statusCode).toBe(200);
    await sweep();
    for (const upload of [a, c]) expect(await stored(upload)).toEqual(gone);
  });

  /** The upload's every file (each variant its row lists), on disk. */
  async function filesOf(upload: { public_id: string }): Promise<string[]> {
    const row = await t.db.kysely
      .selectFrom('media')
      .select('variants')
      .where('id', '=', upload.public_id)
      .executeTakeFirstOrThrow();
    return (JSON.parse(row.variants) as { key: string }[]).map((variant) => path.join(t.config.mediaDir, variant.key));
  }
  const deletePost = (user: SignedInUser, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/posts/${id}/manage`, headers: user.headers });

  it('deleting a post removes every file of every photo at once, with no sweep', async () => {
    const photos = await uploadImages(t.app, ann, 3);
    const post = await createPost(t.app, ann, { images: photos.map((u) => ({ image: u.secure_url })) });
    const files = (await Promise.all(photos.map(filesOf))).flat();
    // Each photo's variants: its WebP sizes and the fallback.
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const file of files) expect(existsSync(file), file).toBe(true);

    expect((await deletePost(ann, post._id)).statusCode).toBe(200);
    for (const file of files) expect(existsSync(file), file).toBe(false);
    for (const upload of photos) expect(await stored(upload)).toEqual(gone);
  });

  it("keeps the files of a deleted post's photo that another post or the author's avatar uses", async () => {
    const [shared, avatar, own] = await uploadImages(t.app, ann, 3);
    const first = await createPost(t.app, ann, { images: [shared, avatar, own].map((u) => ({ image: u.secure_url })) });
    const second = await sendPost(t.app, ann, { images: [{ image: shared.secure_url }] });
    expect(second.statusCode, second.body).toBe(201);
    const profile = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: ann.headers,
      payload: { avatar: avatar.secure_url },
    });
    expect(profile.statusCode, profile.body).toBe(200);

    expect((await deletePost(ann, first._id)).statusCode).toBe(200);
    expect(await stored(own)).toEqual(gone);
    for (const upload of [shared, avatar]) {
      expect(await stored(upload)).toEqual(kept);
      for (const file of await filesOf(upload)) expect(existsSync(file), file).toBe(true);
    }
  });

  it('a deleted account takes every file of every photo of its posts', async () => {
    const dan = await signIn(t.app);
    const photos = await uploadImages(t.app, dan, 3);
    const made = await sendPost(t.app, dan, { images: photos.map((u) => ({ image: u.secure_url })) });
    expect(made.statusCode, made.body).toBe(201);
    const files = (await Promise.all(photos.map(filesOf))).flat();
    for (const file of files) expect(existsSync(file), file).toBe(true);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: dan.headers,
      payload: { password: dan.password },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    for (const file of files) expect(existsSync(file), file).toBe(false);
    for (const upload of photos) expect(await stored(upload)).toEqual(gone);
  });

  it("the export's posts.json lists every photo in order, and the zip holds each one's file", async () => {
    const cat = await signIn(t.app);
    const [a, b] = await uploadImages(t.app, cat, 2);
    const made = await sendPost(t.app, cat, { images: [{ image: a.secure_url, alt: 'One' }, { image: b.secure_url }] });
    expect(made.statusCode).toBe(201);
    const res = await t.app.inject({ method: 'GET', url: '/api/users/me/export', headers: cat.headers });
    expect(res.statusCode).toBe(200);
    const entries = readZip(res.rawPayload);
    const [post] = JSON.parse(entries.get('posts.json')!.toString('utf8')) as {
      imageFile: string;
      images: { image: string; imageFile: string; alt: string; crop: unknown }[];
    }[];
    expect(post.images).toEqual([
      { image: a.secure_url, imageFile: post.imageFile, alt: 'One', crop: { x: 0.5, y: 0.5, fit: false } },
      { image: b.secure_url, imageFile: expect.any(String), alt: '', crop: { x: 0.5, y: 0.5, fit: false } },
    ]);
    for (const photo of post.images) expect(entries.has(photo.imageFile), photo.imageFile).toBe(true);
  });
});
