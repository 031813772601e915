/**
 * Albums over federation (issue 71): a post's Note carries every photo as an `Image` of its
 * `attachment`, in order, each with its description, size and blurhash; a 5-photo post made on A
 * reaches B whole. A Mastodon-shaped Note with several attachments arrives whole too, its video
 * left out (not a photo), each image's description and focal point kept; an Update of it takes
 * out, adds and reorders photos. Every wait is for something to arrive, never for a time.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Post } from '../../lib/types';
import { federatedInstance } from './federatedInstance';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { uploadImage } from './multipart';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

const WAIT = 60_000;

/** Whether the upload behind a photo's URL here has its row and its folder of files. */
async function storedHere(t: TestApp, url: string) {
  const key = url.slice(t.config.mediaBaseUrl.length + 1);
  const row = await t.db.kysely.selectFrom('media').select('id').where('storage_key', '=', key).executeTakeFirst();
  return { row: row !== undefined, files: existsSync(path.join(t.config.mediaDir, path.dirname(key))) };
}
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const png = (name: string) => readFileSync(path.resolve(import.meta.dirname, `../fixtures/pngsuite/png/${name}`));

describe('an album from A reaches B whole', () => {
  let a: TestApp;
  let b: TestApp;
  let hostA: string;
  let ann: SignedInUser;
  let bob: SignedInUser;
  beforeAll(async () => {
    ({ t: a, host: hostA } = await federatedInstance());
    ({ t: b } = await federatedInstance());
    ann = await signIn(a.app, { username: 'ann' });
    bob = await signIn(b.app, { username: 'bob' });
  }, WAIT);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it(
    'five photos in order, each with its alt text: in the Note A serves and in the post B keeps',
    async () => {
      const annThere = `ann@${hostA}`;
      const found = await b.app.inject({
        method: 'GET',
        url: `/api/users/search?q=${encodeURIComponent(`@${annThere}`)}`,
        headers: bob.headers,
      });
      expect(found.statusCode, found.body).toBe(200);
      const follow = await b.app.inject({
        method: 'PATCH',
        url: `/api/users/${encodeURIComponent(annThere)}/follow`,
        headers: bob.headers,
      });
      expect(follow.statusCode, follow.body).toBe(200);
      await until(
        async () => (await a.db.kysely.selectFrom('federation_followers').select('actor_uri').execute()).length,
      );

      const photos: { secure_url: string }[] = [];
      for (let i = 0; i < 5; i++) photos.push(await uploadImage(a.app, ann, 'post'));
      const alts = ['One', '', 'Three', 'Four', 'Five'];
      const made = await a.app.inject({
        method: 'POST',
        url: '/api/posts/create',
        headers: ann.headers,
        payload: {
          message: 'Five at once',
          tags: ['five'],
          images: photos.map((p, i) => ({
            image: p.secure_url,
            alt: alts[i],
            ...(i === 3 && { crop: { x: 0, y: 0 } }),
          })),
        },
      });
      expect(made.statusCode, made.body).toBe(201);
      const post = made.json() as Post;

      // The Note A serves: one Image per photo, in order.
      const served = await fetch(`http://${hostA}/post/${post._id}`, {
        headers: { accept: 'application/activity+json' },
      });
      expect(served.status).toBe(200);
      const note = (await served.json()) as { attachment: Record<string, unknown>[] };
      expect(note.attachment).toHaveLength(5);
      note.attachment.forEach((image, i) => {
        expect(image).toMatchObject({ type: 'Image', width: 64, height: 48 });
        expect(String(image.url)).toContain(photos[i].secure_url.split('/').slice(-2, -1)[0]);
        expect(image.name ?? '').toBe(alts[i]);
        expect(image.blurhash).toEqual(expect.any(String));
      });
      expect(note.attachment[3].focalPoint).toEqual([-1, 1]);

      // B keeps it whole.
      const kept = await until(() =>
        b.db.kysely.selectFrom('posts').select('id').where('message', '=', 'Five at once').executeTakeFirst(),
      );
      const there = (
        await b.app.inject({ method: 'GET', url: `/api/posts/${kept.id}`, headers: bob.headers })
      ).json() as Post;
      expect(there.images.map((photo) => photo.alt)).toEqual(alts);
      for (const photo of there.images) {
        expect(photo.image).toMatch(/^\/media\/post\//);
        expect(photo.imageInfo).toMatchObject({ width: 64, height: 48 });
      }
      expect(new Set(there.images.map((photo) => photo.image)).size).toBe(5);
      expect(there.images[3].crop).toEqual({ x: 0, y: 0, fit: false });
      expect(there.image).toBe(there.images[0].image);
    },
    WAIT,
  );
});

describe('a Mastodon Note with several attachments', () => {
  let t: TestApp;
  let remote: RemoteServer;
  let ann: SignedInUser;
  let local: string;
  beforeAll(async () => {
    remote = await startRemoteServer(['zoe'], {
      files: {
        '/files/a.png': { type: 'image/png', body: png('basn2c08.png') },
        '/files/b.png': { type: 'image/png', body: png('basn0g08.png') },
        '/files/c.png': { type: 'image/png', body: png('basn6a08.png') },
        '/files/d.png': { type: 'image/png', body: png('basn2c08.png') },
      },
    });
    const port = await freePort();
    local = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true', MAX_POST_IMAGES: '3' });
    await t.app.listen({ host: '127.0.0.1', port });
    ann = await signIn(t.app, { username: 'ann' });
  }, WAIT);
  afterAll(async () => {
    await t?.close();
    await remote?.close();
  });

  /** Mastodon's attachment of a photo (`ActivityPub::NoteSerializer`): a Document with its blurhash. */
  const photo = (file: string, name: string | null, focalPoint?: [number, number]) => ({
    type: 'Document',
    mediaType: 'image/png',
    url: `${remote.origin}/files/${file}`,
    name,
    blurhash: 'UBL_:rOpGG-oBUNG,qRj2so|=eE1w^n4S5NH',
    ...(focalPoint && { focalPoint }),
    width: 32,
    height: 32,
  });

  it(
    'keeps its images in order, up to the limit, each with its description and focal point; its video is not a photo',
    async () => {
      const actor = remote.actorUri('zoe');
      const localActor = `${local}/users/${ann.id}`;
      const id = `${actor}/statuses/201`;
      const response = await remote.signedPost('zoe', `${localActor}/inbox`, {
        '@context': [
          'https://www.w3.org/ns/activitystreams',
          {
            sensitive: 'as:sensitive',
            toot: 'http://joinmastodon.org/ns#',
            blurhash: 'toot:blurhash',
            focalPoint: { '@container': '@list', '@id': 'toot:focalPoint' },
            Hashtag: 'as:Hashtag',
          },
        ],
        id: `${id}/activity`,
        type: 'Create',
        actor,
        published: '2026-12-06T10:00:00Z',
        to: [PUBLIC],
        cc: [`${actor}/followers`, localActor],
        object: {
          id,
          type: 'Note',
          summary: null,
          inReplyTo: null,
          published: '2026-12-06T10:00:00Z',
          url: `${remote.origin}/@zoe/201`,
          attributedTo: actor,
          to: [PUBLIC],
          cc: [`${actor}/followers`, localActor],
          sensitive: false,
          content: `<p>A walk <span class="h-card"><a href="${localActor}" class="u-url mention">@<span>ann</span></a></span> <a href="${remote.origin}/tags/walk" class="mention hashtag" rel="tag">#<span>walk</span></a></p>`,
          attachment: [
            photo('a.png', 'The gate'),
            { type: 'Document', mediaType: 'video/mp4', url: `${remote.origin}/files/clip.mp4`, name: 'A clip' },
            photo('b.png', null, [0.5, -0.25]),
            photo('c.png', 'The hill'),
            // Past this instance's limit (3 here): left out.
            photo('d.png', 'Past the limit'),
          ],
          tag: [
            { type: 'Mention', href: localActor, name: '@ann' },
            { type: 'Hashtag', href: `${remote.origin}/tags/walk`, name: '#walk' },
          ],
        },
      });
      expect(response.status, await response.text()).toBeLessThan(300);
      const kept = await until(() =>
        t.db.kysely.selectFrom('posts').select('id').where('uri', '=', id).executeTakeFirst(),
      );
      const post = (
        await t.app.inject({ method: 'GET', url: `/api/posts/${kept.id}`, headers: ann.headers })
      ).json() as Post;
      expect(post.images.map((image) => image.alt)).toEqual(['The gate', '', 'The hill']);
      for (const image of post.images) expect(image.image).toMatch(/^\/media\/post\//);
      expect(new Set(post.images.map((image) => image.image)).size).toBe(3);
      expect(post.images[1].crop).toEqual({ x: 0.75, y: 0.625, fit: false });
      expect(post.images.map((image) => image.imageInfo?.width)).toEqual([32, 32, 32]);
      // An Update that keeps two of the images, reordered and renamed: the post has those two, in
      // that order, each kept photo with its own file and its own image's new description.
      const updated = await remote.signedPost('zoe', `${localActor}/inbox`, {
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${id}#updates/1`,
        type: 'Update',
        actor,
        to: [PUBLIC],
        object: {
          id,
          type: 'Note',
          attributedTo: actor,
          to: [PUBLIC],
          cc: [localActor],
          published: '2026-12-06T10:00:00Z',
          updated: '2026-12-06T11:00:00Z',
          content: `<p>A walk, edited <a href="${remote.origin}/tags/walk" class="mention hashtag" rel="tag">#<span>walk</span></a></p>`,
          attachment: [photo('c.png', 'The hill, renamed'), photo('a.png', 'The gate, renamed')],
          tag: [{ type: 'Hashtag', href: `${remote.origin}/tags/walk`, name: '#walk' }],
        },
      });
      expect(updated.status, await updated.text()).toBeLessThan(300);
      const edited = await until(async () => {
        const read = (
          await t.app.inject({ method: 'GET', url: `/api/posts/${kept.id}`, headers: ann.headers })
        ).json() as Post;
        return read.message.includes('edited') ? read : null;
      });
      expect(edited.images.map((image) => image.image)).toEqual([post.images[2].image, post.images[0].image]);
      expect(edited.images.map((image) => image.alt)).toEqual(['The hill, renamed', 'The gate, renamed']);
      expect(edited).toMatchObject({ image: post.images[2].image, alt: 'The hill, renamed' });
      // The photo taken out went, row and files.
      expect(await storedHere(t, post.images[1].image)).toEqual({ row: false, files: false });

      // Nothing asked for the video, nor for the photo past the limit.
      const asked = remote.requests.map((request) => request.path);
      expect(asked).not.toContain('/files/clip.mp4');
      expect(asked).not.toContain('/files/d.png');
    },
    WAIT,
  );
});

describe('an Update from elsewhere that takes out, adds and reorders photos', () => {
  let t: TestApp;
  let remote: RemoteServer;
  let ann: SignedInUser;
  let local: string;
  beforeAll(async () => {
    remote = await startRemoteServer(['zoe'], {
      files: {
        '/files/a.png': { type: 'image/png', body: png('basn2c08.png') },
        '/files/b.png': { type: 'image/png', body: png('basn0g08.png') },
        '/files/c.png': { type: 'image/png', body: png('basn6a08.png') },
        '/files/d.png': { type: 'image/png', body: png('basn2c08.png') },
      },
    });
    const port = await freePort();
    local = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
    await t.app.listen({ host: '127.0.0.1', port });
    ann = await signIn(t.app, { username: 'ann' });
  }, WAIT);
  afterAll(async () => {
    await t?.close();
    await remote?.close();
  });

  it(
    'a post of 3 photos updated to 2, then to 4: exactly those photos in that order, each with its alt text',
    async () => {
      const actor = remote.actorUri('zoe');
      const localActor = `${local}/users/${ann.id}`;
      const id = `${actor}/statuses/301`;
      const image = (file: string, name: string) => ({
        type: 'Image',
        mediaType: 'image/png',
        url: `${remote.origin}/files/${file}`,
        name,
      });
      /** The Note as it stands after `n` edits, sent as a Create (n = 0) or an Update. */
      const send = async (n: number, content: string, attachment: Record<string, unknown>[]) => {
        const note = {
          id,
          type: 'Note',
          attributedTo: actor,
          to: [PUBLIC],
          cc: [localActor],
          published: '2026-12-06T10:00:00Z',
          ...(n > 0 && { updated: `2026-12-06T1${n}:00:00Z` }),
          content: `<p>${content} <a href="${localActor}" class="u-url mention">@ann</a></p>`,
          attachment,
          tag: [
            { type: 'Mention', href: localActor, name: '@ann' },
            { type: 'Hashtag', href: `${remote.origin}/tags/walk`, name: '#walk' },
          ],
        };
        const response = await remote.signedPost('zoe', `${localActor}/inbox`, {
          '@context': 'https://www.w3.org/ns/activitystreams',
          id: `${id}#${n}`,
          type: n === 0 ? 'Create' : 'Update',
          actor,
          to: [PUBLIC],
          cc: [localActor],
          object: note,
        });
        expect(response.status, await response.text()).toBeLessThan(300);
      };
      const postSaying = async (word: string) => {
        const kept = await until(() =>
          t.db.kysely.selectFrom('posts').select('id').where('uri', '=', id).executeTakeFirst(),
        );
        return until(async () => {
          const read = (
            await t.app.inject({ method: 'GET', url: `/api/posts/${kept.id}`, headers: ann.headers })
          ).json() as Post;
          return read.message.includes(word) ? read : null;
        });
      };
      const fetchesOf = (file: string) => remote.requests.filter((r) => r.path === `/files/${file}`).length;

      await send(0, 'Three', [image('a.png', 'A'), image('b.png', 'B'), image('c.png', 'C')]);
      const three = await postSaying('Three');
      expect(three.images.map((photo) => photo.alt)).toEqual(['A', 'B', 'C']);
      const [a, b, c] = three.images.map((photo) => photo.image);

      // One taken out: the two others keep their files and take their new descriptions.
      await send(1, 'Two', [image('a.png', 'A'), image('c.png', 'C, again')]);
      const two = await postSaying('Two');
      expect(two.images.map((photo) => photo.image)).toEqual([a, c]);
      expect(two.images.map((photo) => photo.alt)).toEqual(['A', 'C, again']);
      expect(await storedHere(t, b)).toEqual({ row: false, files: false });

      // Two added (one of them back) and the order changed: the new ones fetched, the kept ones not.
      await send(2, 'Four', [
        image('c.png', 'C'),
        image('d.png', 'D'),
        image('a.png', 'A, again'),
        image('b.png', 'B, back'),
      ]);
      const four = await postSaying('Four');
      const urls = four.images.map((photo) => photo.image);
      expect([urls[0], urls[2]]).toEqual([c, a]);
      expect(new Set([...urls, b]).size).toBe(5);
      for (const url of urls) {
        expect(url).toMatch(/^\/media\/post\//);
        expect(await storedHere(t, url)).toEqual({ row: true, files: true });
      }
      expect(four.images.map((photo) => photo.alt)).toEqual(['C', 'D', 'A, again', 'B, back']);
      expect(four.images.map((photo) => photo.imageInfo?.width)).toEqual([32, 32, 32, 32]);
      expect(four).toMatchObject({ image: c, alt: 'C' });
      expect(['a.png', 'b.png', 'c.png', 'd.png'].map(fetchesOf)).toEqual([1, 2, 1, 1]);

      // An Update with no image left changes the text and keeps the photos (a post has one at least).
      await send(3, 'None', []);
      const none = await postSaying('None');
      // Without imageInfo: a new image's other sizes may still have been being written when `four` was read.
      const kept = (post: Post) => post.images.map((photo) => [photo.image, photo.alt, photo.crop]);
      expect(kept(none)).toEqual(kept(four));
    },
    WAIT,
  );
});
