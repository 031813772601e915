/**
 * Albums (issue 71): a post of 1 to `MAX_POST_IMAGES` photos, in the author's order, each with its
 * own alt text, crop and image details. Written through `images`, or the one-image fields (a
 * one-photo album); read by every list and the post itself, through the caches (albumFiles.test.ts:
 * their files; postImagesMigration.test.ts: the migration). This file's app holds posts to 20 photos (the most `MAX_POST_IMAGES` allows).
 */
import type { Post } from '../../lib/types';
import { loadConfig } from '../../server/config';
import { createPost, editPost, sendPost, uploadImages } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
let ann: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  t = await createTestApp({ MAX_POST_IMAGES: '20' });
  ann = await signIn(t.app);
  bob = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
});

const get = async <T>(user: SignedInUser, url: string): Promise<T> => {
  const res = await t.app.inject({ method: 'GET', url, headers: user.headers });
  expect(res.statusCode, url).toBe(200);
  return res.json() as T;
};
const read = (user: SignedInUser, id: string) => get<Post>(user, `/api/posts/${id}`);

/** The post as every list that shows it gives it to `user`: everyone's, its tag's, its author's profile. */
async function inLists(user: SignedInUser, id: string, tag: string, author: string): Promise<Post[]> {
  const lists = await Promise.all([
    get<Post[]>(user, '/api/posts?feed=all&limit=40'),
    get<Post[]>(user, `/api/posts/tagged?tags=${tag}`),
    get<Post[]>(user, `/api/users/${author}/posts`),
  ]);
  return lists.map((list) => {
    const found = list.find((p) => p._id === id);
    expect(found).toBeDefined();
    return found!;
  });
}

const urlsOf = (post: Post) => post.images.map((photo) => photo.image);
const altsOf = (post: Post) => post.images.map((photo) => photo.alt);

/** The photos in every read of the post `user` makes: the post itself and each list. */
async function everywhere(user: SignedInUser, id: string, tag: string, author: string) {
  const reads = [await read(user, id), ...(await inLists(user, id, tag, author))];
  for (const post of reads) {
    // The one-image fields stay the first photo.
    expect(post.image).toBe(post.images[0].image);
    expect(post.alt).toBe(post.images[0].alt);
    expect(post.crop).toEqual(post.images[0].crop);
    expect(post.imageInfo).toEqual(post.images[0].imageInfo);
  }
  const [first, ...others] = reads.map((post) => post.images);
  for (const images of others) expect(images).toEqual(first);
  return first;
}

describe('albums: a post of several photos', () => {
  it("says the instance's limit in GET /api/instance, for the composer", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/instance' });
    expect(res.json()).toMatchObject({ maxPostImages: 20 });
  });

  it('keeps the photos in the order given, each with its alt text, crop and image details; the one-image fields are the first', async () => {
    const [a, b, c] = await uploadImages(t.app, ann, 3);
    const res = await sendPost(t.app, ann, {
      tags: ['trip'],
      images: [
        { image: a.secure_url, alt: 'The harbour' },
        { image: b.secure_url, crop: { x: 0.2, y: 0.8 } },
        { image: c.secure_url, alt: 'The lighthouse', crop: { x: 0.5, y: 0.5, fit: true } },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const post = res.json() as Post;
    expect(urlsOf(post)).toEqual([a.secure_url, b.secure_url, c.secure_url]);
    expect(altsOf(post)).toEqual(['The harbour', '', 'The lighthouse']);
    expect(post.images.map((photo) => photo.crop)).toEqual([
      { x: 0.5, y: 0.5, fit: false },
      { x: 0.2, y: 0.8, fit: false },
      { x: 0.5, y: 0.5, fit: true },
    ]);
    for (const photo of post.images) {
      expect(photo.imageInfo).toMatchObject({ width: 64, height: 48 });
      expect(photo.imageInfo!.srcset).toContain('.webp');
    }
    expect(post).toMatchObject({ image: a.secure_url, alt: 'The harbour' });
    const images = await everywhere(ann, post._id, 'trip', ann.username);
    expect(images).toEqual(post.images);
    expect(await everywhere(bob, post._id, 'trip', ann.username)).toEqual(post.images);
  });

  it('a body with `image` alone is a one-photo album', async () => {
    const post = await createPost(t.app, ann, { tags: ['single'] });
    expect(post.images).toEqual([{ image: post.image, imageInfo: post.imageInfo, alt: '', crop: post.crop }]);
    expect(await everywhere(bob, post._id, 'single', ann.username)).toEqual(post.images);
  });

  it('takes as many photos as the limit, and refuses one more with the limit in the message, writing nothing', async () => {
    const photos = await uploadImages(t.app, ann, 21);
    const countBefore = (await get<Post[]>(ann, `/api/users/${ann.username}/posts?limit=40`)).length;
    const refused = await sendPost(t.app, ann, { images: photos.map((p) => ({ image: p.secure_url })) });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: 'A post holds at most 20 photos', code: 'TooManyImages' });
    expect((await get<Post[]>(ann, `/api/users/${ann.username}/posts?limit=40`)).length).toBe(countBefore);

    const made = await sendPost(t.app, ann, { images: photos.slice(0, 20).map((p) => ({ image: p.secure_url })) });
    expect(made.statusCode, made.body).toBe(201);
    expect(urlsOf(made.json())).toEqual(photos.slice(0, 20).map((p) => p.secure_url));
  });

  it("refuses another person's upload, a photo given twice, no photo, and `images` beside `image`", async () => {
    const [mine, again] = await uploadImages(t.app, ann, 2);
    const [bobs] = await uploadImages(t.app, bob, 1);
    const cases: [unknown, Record<string, unknown>, string, string][] = [
      [
        'not mine',
        { images: [{ image: mine.secure_url }, { image: bobs.secure_url }] },
        'Photo 2: The image must be a post image uploaded here',
        'InvalidImage',
      ],
      [
        'twice',
        { images: [{ image: mine.secure_url }, { image: again.secure_url }, { image: mine.secure_url }] },
        'Photo 3: it is in the post already',
        'DuplicateImage',
      ],
      ['none', { images: [] }, 'Please add an image', 'ImageRequired'],
      ['not a list', { images: mine.secure_url }, 'images must be a list of { image, alt, crop }', 'InvalidImages'],
      [
        'a bad alt text',
        { images: [{ image: mine.secure_url }, { image: again.secure_url, alt: 7 }] },
        'Photo 2: Alt text must be text',
        'InvalidAlt',
      ],
      [
        'both ways',
        { image: mine.secure_url, images: [{ image: again.secure_url }] },
        'Send either images or image, alt and crop, not both',
        'ImageConflict',
      ],
    ];
    for (const [name, payload, message, code] of cases) {
      const res = await sendPost(t.app, ann, payload);
      expect(res.statusCode, String(name)).toBe(400);
      expect(res.json(), String(name)).toMatchObject({ message, code });
    }
  });

  it('edits: reorders keeping each alt text, changes alt texts, removes photos but never the last, adds photos; every list and the post show each change to everyone', async () => {
    const [a, b, c, d, e] = await uploadImages(t.app, ann, 5);
    const created = await createPost(t.app, ann, {
      tags: ['edited'],
      images: [
        { image: a.secure_url, alt: 'A' },
        { image: b.secure_url, alt: 'B', crop: { x: 0, y: 1 } },
        { image: c.secure_url, alt: 'C' },
      ],
    });
    const id = created._id;
    // Every read kept before the edits (the shared rows, the lists' pages, the renderings).
    await everywhere(ann, id, 'edited', ann.username);
    await everywhere(bob, id, 'edited', ann.username);

    const expectEverywhere = async (urls: string[], alts: string[]) => {
      for (const user of [ann, bob]) {
        const images = await everywhere(user, id, 'edited', ann.username);
        expect(images.map((p) => p.image)).toEqual(urls);
        expect(images.map((p) => p.alt)).toEqual(alts);
      }
    };

    const reordered = await editPost(t.app, ann, id, {
      images: [{ image: c.secure_url }, { image: a.secure_url }, { image: b.secure_url, alt: 'B again' }],
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(urlsOf(reordered.json())).toEqual([c.secure_url, a.secure_url, b.secure_url]);
    expect(reordered.json().images[2].crop).toEqual({ x: 0, y: 1, fit: false });
    await expectEverywhere([c.secure_url, a.secure_url, b.secure_url], ['C', 'A', 'B again']);

    const removed = await editPost(t.app, ann, id, { images: [{ image: a.secure_url }] });
    expect(removed.statusCode).toBe(200);
    await expectEverywhere([a.secure_url], ['A']);

    const none = await editPost(t.app, ann, id, { images: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'ImageRequired' });
    await expectEverywhere([a.secure_url], ['A']);

    const added = await editPost(t.app, ann, id, {
      images: [{ image: a.secure_url }, { image: d.secure_url, alt: 'D' }, { image: e.secure_url }],
    });
    expect(added.statusCode).toBe(200);
    await expectEverywhere([a.secure_url, d.secure_url, e.secure_url], ['A', 'D', '']);

    // The one-image fields change the first photo alone.
    expect((await editPost(t.app, ann, id, { alt: 'First' })).statusCode).toBe(200);
    await expectEverywhere([a.secure_url, d.secure_url, e.secure_url], ['First', 'D', '']);
    expect((await editPost(t.app, ann, id, { image: b.secure_url })).statusCode).toBe(200);
    await expectEverywhere([b.secure_url, d.secure_url, e.secure_url], ['First', 'D', '']);
    const twice = await editPost(t.app, ann, id, { image: d.secure_url });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ code: 'DuplicateImage' });

    // Only the author edits, with their own uploads.
    expect((await editPost(t.app, bob, id, { images: [{ image: a.secure_url }] })).statusCode).toBe(403);
    const [bobs] = await uploadImages(t.app, bob, 1);
    const foreign = await editPost(t.app, ann, id, { images: [{ image: b.secure_url }, { image: bobs.secure_url }] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'InvalidImage' });
    await expectEverywhere([b.secure_url, d.secure_url, e.secure_url], ['First', 'D', '']);
  });
});

describe('MAX_POST_IMAGES', () => {
  const configWith = (value?: string) =>
    loadConfig({
      DATA_DIR: t.dataDir,
      JWT_SECRET: 'test-secret-'.padEnd(48, 'x'),
      ...(value === undefined ? {} : { MAX_POST_IMAGES: value }),
    });

  it('is 10 unless set, and must be from 1 to 20', () => {
    expect(configWith().maxPostImages).toBe(10);
    expect(configWith('20').maxPostImages).toBe(20);
    expect(() => configWith('21')).toThrow('MAX_POST_IMAGES must be from 1 to 20');
    expect(() => configWith('0')).toThrow('MAX_POST_IMAGES must be from 1 to 20');
  });
});
