/** Where feeds crop a post's photo (issue 68, item 2): validation, the API field, Mastodon's meta.focus. */
import { cropColumn, cropOfColumn, cropOfMastodonFocus, mastodonFocus } from '../../lib/photoCrop';
import type { Post } from '../../lib/types';
import { postStatus } from '../../server/mastodon/mappers';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { uploadImage } from './multipart';

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t.app);
  bob = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
});

const inject = (user: SignedInUser | null, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });

async function create(crop?: unknown) {
  const upload = await uploadImage(t.app, alice, 'post');
  return inject(alice, 'POST', '/api/posts/create', {
    message: 'Crop',
    image: upload.secure_url,
    tags: ['crop'],
    ...(crop === undefined ? {} : { crop }),
  });
}

describe('crop on a post', () => {
  it('is the centre by default, kept on create and edit, and read back by others', async () => {
    const plain = await create();
    expect(plain.statusCode).toBe(201);
    expect(plain.json<Post>().crop).toEqual({ x: 0.5, y: 0.5, fit: false });

    const made = await create({ x: 0.2, y: 0.85 });
    expect(made.statusCode).toBe(201);
    const post = made.json<Post>();
    expect(post.crop).toEqual({ x: 0.2, y: 0.85, fit: false });
    expect((await inject(bob, 'GET', `/api/posts/${post._id}`)).json<Post>().crop).toEqual(post.crop);

    const fit = await inject(alice, 'PATCH', `/api/posts/${post._id}/manage`, {
      post: { crop: { x: 0.5, y: 0.5, fit: true } },
    });
    expect(fit.statusCode).toBe(200);
    expect(fit.json<Post>().crop).toEqual({ x: 0.5, y: 0.5, fit: true });
    const row = await t.db.kysely.selectFrom('posts').select('crop').where('id', '=', post._id).executeTakeFirst();
    expect(row?.crop).toBe('fit');
    // In lists too.
    const list = await inject(bob, 'GET', `/api/posts?feed=all`);
    expect(list.json<Post[]>().find((p) => p._id === post._id)?.crop).toEqual({ x: 0.5, y: 0.5, fit: true });
  });

  it.each([
    ['a string', 'fit', 'crop must be an object: { "x": 0…1, "y": 0…1, "fit": true or false }'],
    ['null', null, 'crop must be an object: { "x": 0…1, "y": 0…1, "fit": true or false }'],
    ['x past 1', { x: 1.5, y: 0.5 }, 'crop.x must be a number from 0 to 1'],
    ['a negative y', { x: 0.5, y: -0.1 }, 'crop.y must be a number from 0 to 1'],
    ['x as text', { x: '0.5', y: 0.5 }, 'crop.x must be a number from 0 to 1'],
    ['no y', { x: 0.5 }, 'crop.y must be a number from 0 to 1'],
    ['fit as text', { x: 0.5, y: 0.5, fit: 'yes' }, 'crop.fit must be true or false'],
  ])('refuses %s with 400 and says why, on create and on edit', async (_name, crop, message) => {
    const res = await create(crop);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const post = (await create({ x: 0.3, y: 0.3 })).json<Post>();
    const edit = await inject(alice, 'PATCH', `/api/posts/${post._id}/manage`, { post: { crop } });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toBe(message);
    expect((await inject(alice, 'GET', `/api/posts/${post._id}`)).json<Post>().crop).toEqual({
      x: 0.3,
      y: 0.3,
      fit: false,
    });
  });

  it('only the author may change it', async () => {
    const post = (await create({ x: 0.3, y: 0.3 })).json<Post>();
    const res = await inject(bob, 'PATCH', `/api/posts/${post._id}/manage`, { post: { crop: { x: 1, y: 1 } } });
    expect(res.statusCode).toBe(403);
  });
});

describe("Mastodon's meta.focus", () => {
  it('converts both ways: x, y in -1…1 with y up', () => {
    expect(mastodonFocus({ x: 0.5, y: 0.5, fit: false })).toEqual({ x: 0, y: 0 });
    expect(mastodonFocus({ x: 1, y: 0, fit: false })).toEqual({ x: 1, y: 1 });
    expect(mastodonFocus({ x: 0.25, y: 0.75, fit: false })).toEqual({ x: -0.5, y: -0.5 });
    expect(cropOfMastodonFocus({ x: -0.5, y: -0.5 })).toEqual({ x: 0.25, y: 0.75, fit: false });
    expect(cropOfColumn(cropColumn({ x: 0.123, y: 0.9, fit: false }))).toEqual({ x: 0.123, y: 0.9, fit: false });
  });

  it("is on the status's media attachment (a post read through the Mastodon API)", async () => {
    const post = (await create({ x: 0.25, y: 0.75 })).json<Post>();
    const status = postStatus('https://posts.example', post, null, null);
    expect(status.media_attachments[0].meta).toMatchObject({ focus: { x: -0.5, y: -0.5 } });
    // "Fit" has no Mastodon form: no focus, the client centres it.
    // Each photo's own crop (issue 71): the first is the post's.
    const whole = { x: 0.5, y: 0.5, fit: true };
    const fit = { ...post, crop: whole, images: post.images.map((photo) => ({ ...photo, crop: whole })) };
    expect(postStatus('https://posts.example', fit, null, null).media_attachments[0].meta).not.toHaveProperty('focus');
  });
});
