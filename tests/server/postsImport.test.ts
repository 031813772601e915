/**
 * Issue 76, item 3: a Posts export imports into another Posts instance through the Instagram
 * import's upload, pick and job. One app exports a person's data (`GET /api/users/me/export`: an
 * album of three photos with alt texts, a public and a followers-only post, tags, a content
 * warning); a second app's person imports the zip: the posts come exactly (photos in order, alt
 * texts, dates, audiences, tags, `importedFrom: 'posts'`), the profile settings only when asked,
 * and a broken posts.json is refused with its message and nothing left behind.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InstagramImport, Post, User } from '../../lib/types';
import { photo, zipOf } from './instagramArchive';
import { sendPost } from './factories';
import { postUpload } from './multipart';
import { IMPORTS_URL, ended, get, post, profilePosts, upload } from './importRoutes';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { readZip } from './zip';

const importsDir = mkdtempSync(path.join(tmpdir(), 'posts-import-'));
let source: TestApp;
let target: TestApp;
beforeAll(async () => {
  source = await createTestApp();
  target = await createTestApp({ INSTAGRAM_IMPORT_DIR: importsDir });
});
afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
});

const URL = IMPORTS_URL;

async function me(app: TestApp, user: SignedInUser): Promise<User> {
  const res = await get(app, user, '/api/auth/getLoggedUser');
  expect(res.statusCode).toBe(200);
  return res.json() as User;
}

/** A photo of its own size, uploaded as `user`'s: the sizes tell the album's order after the import. */
async function upload3(user: SignedInUser, width: number): Promise<string> {
  const res = await postUpload(source.app, user, { data: await photo(width, width, 30) });
  expect(res.statusCode).toBe(201);
  return res.json().secure_url as string;
}

const SETTINGS = {
  displayName: 'Ann Elsewhere',
  description: 'Lighthouses and boats',
  fields: [{ name: 'Site', value: 'https://example.com/ann' }],
  defaultAudience: 'unlisted',
  approveFollowers: true,
  discoverable: false,
};

/** Ann's export from the first app: an album, a followers-only post with a content warning, a public post. */
async function annsExport(): Promise<{ archive: Buffer; posts: Post[] }> {
  const ann = await signIn(source.app);
  const album = await sendPost(source.app, ann, {
    message: 'Three from the coast #sea',
    tags: ['coast'],
    audience: 'public',
    images: [
      { image: await upload3(ann, 40), alt: 'The lighthouse at dawn' },
      { image: await upload3(ann, 50), alt: 'Gulls over the harbour' },
      { image: await upload3(ann, 60), alt: '' },
    ],
  });
  expect(album.statusCode).toBe(201);
  const hidden = await sendPost(source.app, ann, {
    message: 'For my followers only',
    tags: ['private'],
    audience: 'followers',
    sensitive: true,
    spoiler: 'Storm damage',
    images: [{ image: await upload3(ann, 44), alt: 'A broken jetty' }],
  });
  expect(hidden.statusCode).toBe(201);
  const plain = await sendPost(source.app, ann, { message: 'Just a walk', tags: ['walk'], audience: 'public' });
  expect(plain.statusCode).toBe(201);
  // Made years ago: the import keeps each date.
  const dates = ['2021-06-01T10:00:00.000Z', '2022-02-03T04:05:06.000Z', '2023-09-09T09:09:09.000Z'];
  for (const [i, res] of [album, hidden, plain].entries())
    await source.db.kysely
      .updateTable('posts')
      .set({ created_at: dates[i], updated_at: dates[i] })
      .where('id', '=', res.json()._id)
      .execute();
  const profile = await source.app.inject({
    method: 'PATCH',
    url: '/api/users/updateProfile',
    headers: ann.headers,
    payload: SETTINGS,
  });
  expect(profile.statusCode).toBe(200);
  const res = await get(source, ann, '/api/users/me/export');
  expect(res.statusCode).toBe(200);
  return { archive: res.rawPayload, posts: (await profilePosts(source, ann)).reverse() };
}

const archiveFiles = () => readdirSync(importsDir);
let exported: Awaited<ReturnType<typeof annsExport>>;
beforeAll(async () => {
  exported = await annsExport();
});

describe('a Posts export', () => {
  it('is found as one, its posts listed to pick, then imported exactly; the settings only when asked', async () => {
    const bea = await signIn(target.app);
    const before = await me(target, bea);
    const res = await upload(target, bea, exported.archive);
    expect(res.statusCode).toBe(201);
    const found = res.json().import as InstagramImport;
    expect(found).toMatchObject({ kind: 'posts', state: 'ready', settings: SETTINGS });
    expect(found.posts.map((p) => [p.takenAt, p.caption, p.photos, p.leftOut, p.status])).toEqual(
      exported.posts.map((p) => [p.createdAt, p.message, p.images.length, 0, 'found']),
    );

    // All three, without the settings.
    const started = await post(target, bea, `${URL}/${found.id}/start`, { positions: [0, 1, 2] });
    expect(started.statusCode).toBe(202);
    const done = await ended(target, bea, found.id);
    expect(done).toMatchObject({ total: 3, done: 3, failed: 0 });
    expect(archiveFiles()).toEqual([]);

    const mine = (await profilePosts(target, bea)).reverse();
    const fields = (p: Post) => ({
      createdAt: p.createdAt,
      message: p.message,
      tags: p.tags,
      audience: p.audience,
      sensitive: p.sensitive,
      spoiler: p.spoiler,
      alts: p.images.map((i) => i.alt),
      widths: p.images.map((i) => i.imageInfo?.width),
    });
    expect(mine.map(fields)).toEqual(exported.posts.map(fields));
    expect(mine[0]).toMatchObject({
      createdAt: '2021-06-01T10:00:00.000Z',
      tags: ['coast', 'sea'],
      audience: 'public',
      sensitive: false,
      spoiler: '',
    });
    expect(mine[0].images.map((i) => [i.alt, i.imageInfo?.width])).toEqual([
      ['The lighthouse at dawn', 40],
      ['Gulls over the harbour', 50],
      ['', 60],
    ]);
    expect(mine[1]).toMatchObject({
      audience: 'followers',
      sensitive: true,
      spoiler: 'Storm damage',
      tags: ['private'],
    });
    expect(mine.map((p) => p.importedFrom)).toEqual(['posts', 'posts', 'posts']);
    // The photos are uploads made here, one for each.
    const media = await target.db.kysely.selectFrom('media').select('id').where('owner_id', '=', bea.id).execute();
    expect(media).toHaveLength(5);
    // Not asked: the profile is as it was.
    expect(await me(target, bea)).toEqual({ ...before, postsCount: 3 });
  });

  it('brings the profile settings when asked, never the email, username or role', async () => {
    const cid = await signIn(target.app);
    const before = await me(target, cid);
    const found = (await upload(target, cid, exported.archive)).json().import as InstagramImport;
    const refused = await post(target, cid, `${URL}/${found.id}/start`, { positions: [2], settings: 'yes' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('settings must be true or false');
    const started = await post(target, cid, `${URL}/${found.id}/start`, { positions: [2], settings: true });
    expect(started.statusCode).toBe(202);
    await ended(target, cid, found.id);
    const after = await me(target, cid);
    expect(after).toMatchObject({
      ...SETTINGS,
      fields: [{ ...SETTINGS.fields[0], verifiedAt: null }],
      username: before.username,
      email: before.email,
      role: before.role,
    });
    const mine = await profilePosts(target, cid);
    expect(mine.map((p) => p.message)).toEqual(['Just a walk']);
  });

  it('holds each post to the post rules: one that breaks them fails alone, before any upload', async () => {
    const entries = readZip(exported.archive);
    const list = JSON.parse(entries.get('posts.json')!.toString('utf8')) as Record<string, unknown>[];
    const changed = list.map((p) =>
      p.message === 'Just a walk'
        ? { ...p, message: 'x'.repeat(300) }
        : p.message === 'For my followers only'
          ? { ...p, audience: 'circle' } // an audience this server does not know: the person's default
          : p,
    );
    entries.set('posts.json', Buffer.from(JSON.stringify(changed)));
    const eve = await signIn(target.app);
    const res = await upload(target, eve, await zipOf([...entries].map(([name, data]) => ({ name, data }))));
    expect(res.statusCode).toBe(201);
    const id = res.json().import.id as string;
    await post(target, eve, `${URL}/${id}/start`, { positions: [0, 1, 2] });
    const done = await ended(target, eve, id);
    expect(done).toMatchObject({ done: 2, failed: 1 });
    expect(done.posts[2].error).toBe('Message must be at most 255 characters');
    const mine = (await profilePosts(target, eve)).reverse();
    expect(mine.map((p) => [p.message, p.audience])).toEqual([
      ['Three from the coast #sea', 'public'],
      ['For my followers only', 'public'],
    ]);
    const media = await target.db.kysely.selectFrom('media').select('id').where('owner_id', '=', eve.id).execute();
    expect(media).toHaveLength(4);
  });

  describe('refuses, with a message and nothing left behind,', () => {
    async function refused(archive: Buffer, message: RegExp) {
      const dee = await signIn(target.app);
      const res = await upload(target, dee, archive);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ArchiveRefused' });
      expect(res.json().message).toMatch(message);
      expect(archiveFiles()).toEqual([]);
      expect((await get(target, dee, URL)).json().import).toBeNull();
    }
    const account = { name: 'account.json', data: Buffer.from('{"username":"ann"}') };

    it('a posts.json that is broken JSON', async () =>
      refused(
        await zipOf([account, { name: 'posts.json', data: Buffer.from('[{"message": ') }]),
        /^posts\.json is not valid JSON$/,
      ));

    it('a posts.json that is not a list of posts', async () =>
      refused(
        await zipOf([account, { name: 'posts.json', data: Buffer.from('{"posts": []}') }]),
        /^posts\.json is not a list of posts as Posts writes them$/,
      ));

    it('a post without a date', async () =>
      refused(
        await zipOf([account, { name: 'posts.json', data: Buffer.from('[{"message": "hi", "images": []}]') }]),
        /a post has no date/,
      ));

    it('a post naming a file outside the archive, or one that is no photo', async () => {
      const list = (file: string) =>
        Buffer.from(
          JSON.stringify([{ message: 'hi', createdAt: '2020-01-01T00:00:00Z', images: [{ imageFile: file }] }]),
        );
      await refused(
        await zipOf([account, { name: 'posts.json', data: list('../../etc/passwd.jpg') }]),
        /outside the archive/,
      );
      await refused(
        await zipOf([
          account,
          { name: 'posts.json', data: list('images/page.html') },
          { name: 'images/page.html', data: Buffer.from('<script>') },
        ]),
        /not a photo/,
      );
    });

    it('a zip bomb', async () => {
      const entries = readZip(exported.archive);
      await refused(
        await zipOf([
          { name: 'account.json', data: entries.get('account.json')! },
          { name: 'posts.json', data: entries.get('posts.json')! },
          { name: 'images/bomb.jpg', data: Buffer.alloc(16 * 1024 * 1024), compress: true },
        ]),
        /zip bomb/,
      );
    });
  });
});
