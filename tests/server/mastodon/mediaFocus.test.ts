/**
 * Mastodon's focal point on uploads (issue 68, item 2): `focus` ("x,y" from -1 to 1, y up) sent with
 * `POST /api/v2/media` / `/api/v1/media` or `PUT /api/v1/media/:id` is answered in `meta.focus` and
 * becomes the crop of the post that takes the upload (`crop {x, y}` from 0 to 1, y down).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { mastodon } from 'masto';
import { type SignedInUser, type TestApp, createTestApp, signIn } from '../helpers';
import { clientFor, listenOn, refusal, userToken } from './oauthFlow';

const PNG = path.resolve(import.meta.dirname, '../../fixtures/pngsuite/png/basn2c08.png');

let t: TestApp;
let url: string;
let alice: SignedInUser;
let aliceApi: mastodon.rest.Client;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  url = await listenOn(t);
  alice = await signIn(t.app);
  token = await userToken(url, alice, 'read write');
  aliceApi = clientFor(url, token);
});
afterAll(async () => {
  await t.close();
});

const file = async () => new Blob([await readFile(PNG)], { type: 'image/png' });

const uploadsOfAlice = async () =>
  (await t.db.kysely.selectFrom('media').select('id').where('owner_id', '=', alice.id).execute()).length;

describe('focus on uploads', () => {
  it('v2 upload with focus: meta.focus, GET answers it, the status made of it is cropped there', async () => {
    const media = await aliceApi.v2.media.create({ file: await file(), focus: '0.5,-0.5' });
    expect(media.meta?.focus).toEqual({ x: 0.5, y: -0.5 });
    expect((await aliceApi.v1.media.$select(media.id).fetch()).meta?.focus).toEqual({ x: 0.5, y: -0.5 });
    const status = await aliceApi.v1.statuses.create({ status: 'Cropped #focus', mediaIds: [media.id] });
    expect(status.mediaAttachments[0].meta?.focus).toEqual({ x: 0.5, y: -0.5 });
    // The site's own API: x 0.75 from the left, y 0.75 from the top.
    const post = await t.app.inject({ method: 'GET', url: `/api/posts/${status.id}`, headers: alice.headers });
    expect(post.json().crop).toEqual({ x: 0.75, y: 0.75, fit: false });
  });

  it('v1 upload, then PUT media/:id moves the focus; a later PUT without focus keeps it', async () => {
    const media = await aliceApi.v1.media.create({ file: await file() });
    expect(media.meta?.focus).toEqual({ x: 0, y: 0 });
    const moved = await aliceApi.v1.media.$select(media.id).update({ focus: '-1,1' });
    expect(moved.meta?.focus).toEqual({ x: -1, y: 1 });
    const described = await aliceApi.v1.media.$select(media.id).update({ description: 'Top left' });
    expect(described.meta?.focus).toEqual({ x: -1, y: 1 });
    const status = await aliceApi.v1.statuses.create({ status: 'Corner #focus', mediaIds: [media.id] });
    const post = await t.app.inject({ method: 'GET', url: `/api/posts/${status.id}`, headers: alice.headers });
    expect(post.json().crop).toEqual({ x: 0, y: 0, fit: false });
  });

  it('a status from an upload without focus keeps the centre', async () => {
    const media = await aliceApi.v2.media.create({ file: await file() });
    const status = await aliceApi.v1.statuses.create({ status: 'Centre #focus', mediaIds: [media.id] });
    const post = await t.app.inject({ method: 'GET', url: `/api/posts/${status.id}`, headers: alice.headers });
    expect(post.json().crop).toEqual({ x: 0.5, y: 0.5, fit: false });
  });

  it.each(['2,0', '0', '0.5,', 'a,b', '0,0,0', '-1.5,0.2'])('refuses focus "%s" and stores nothing', async (focus) => {
    const before = await uploadsOfAlice();
    const refused = await refusal(aliceApi.v2.media.create({ file: await file(), focus }));
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('focus must be two numbers from -1 to 1');
    expect(await uploadsOfAlice()).toBe(before);
  });

  it('refuses a bad focus on PUT and leaves the upload as it was', async () => {
    const media = await aliceApi.v2.media.create({ file: await file(), focus: '0.2,0.2', description: 'Kept' });
    const refused = await refusal(aliceApi.v1.media.$select(media.id).update({ focus: '0.2;0.2', description: 'New' }));
    expect(refused.status).toBe(400);
    const kept = await aliceApi.v1.media.$select(media.id).fetch();
    expect(kept).toMatchObject({ description: 'Kept', meta: { focus: { x: 0.2, y: 0.2 } } });
  });
});
