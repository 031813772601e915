/**
 * Issue 76, item 1: an Instagram archive imported as posts. An archive in Instagram's documented
 * layout (a dozen posts, a carousel, Unicode captions as Instagram escapes them, a missing photo)
 * imports exactly, at the original dates, and not as news to followers; hostile archives are
 * refused with a message and leave nothing behind; a job left by a process that stopped is
 * finished once by the next one.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InstagramImport, Post } from '../../lib/types';
import { MESSAGE_MAX } from '../../lib/limits';
import { fixMojibake, postTextOf } from '../../server/instagramImport/captions';
import { type ArchivePost, instagramArchive, instagramJson, photo, postsJson, zipOf } from './instagramArchive';
import { createPost } from './factories';
import { IMPORTS_URL, ended, get, post, profilePosts, upload } from './importRoutes';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

const importsDir = mkdtempSync(path.join(tmpdir(), 'posts-ig-'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ INSTAGRAM_IMPORT_DIR: importsDir });
});
afterAll(async () => {
  await t.close();
});

const URL = IMPORTS_URL;

const follow = (follower: SignedInUser, followee: SignedInUser) =>
  t.app.inject({ method: 'PATCH', url: `/api/users/${followee.username}/follow`, headers: follower.headers });
const archiveFiles = () => readdirSync(importsDir);
const day = (iso: string) => Date.parse(iso) / 1000;

/** Twelve posts: one a carousel of three, Unicode captions, one whose only photo is missing. */
const DOZEN: ArchivePost[] = [
  {
    timestamp: day('2019-03-01T10:00:00Z'),
    caption: 'Première neige à Montréal ❄️ #hiver #montréal',
    photos: ['201903/a.jpg'],
  },
  { timestamp: day('2019-05-02T10:00:00Z'), caption: '東京の夜 🌃 #tokyo', photos: ['201905/b.jpg'] },
  {
    timestamp: day('2019-07-03T10:00:00Z'),
    caption: 'Carousel: three from the coast #sea #summer',
    photos: ['201907/c1.jpg', '201907/c2.jpg', '201907/c3.jpg'],
  },
  ...Array.from({ length: 8 }, (_, i) => ({
    timestamp: day(`2020-0${i + 1}-15T12:00:00Z`),
    caption: i === 3 ? '' : `Walk number ${i + 1}`,
    photos: [`2020${i}/w${i}.jpg`],
  })),
  { timestamp: day('2021-01-01T00:00:00Z'), caption: 'Lost photo #gone', photos: ['202101/lost.jpg'] },
];

describe('an Instagram archive', () => {
  it('lists the posts it holds, then imports those picked at their dates with their captions', async () => {
    const me = await signIn(t.app);
    const follower = await signIn(t.app);
    expect((await follow(follower, me)).statusCode).toBeLessThan(300);
    const res = await upload(t, me, await instagramArchive(DOZEN, { missing: ['202101/lost.jpg'] }));
    expect(res.statusCode).toBe(201);
    const found = res.json().import as InstagramImport;
    expect(found).toMatchObject({ state: 'ready', kind: 'instagram', settings: null });
    expect(found.posts).toHaveLength(12);
    expect(found.posts.map((p) => p.takenAt)).toEqual(DOZEN.map((p) => new Date(p.timestamp * 1000).toISOString()));
    expect(found.posts[0].caption).toBe('Première neige à Montréal ❄️ #hiver #montréal');
    expect(found.posts[1].caption).toBe('東京の夜 🌃 #tokyo');
    expect(found.posts[2].photos).toBe(3);
    expect(found.posts[11]).toMatchObject({ photos: 0, leftOut: 1, status: 'skipped' });
    expect(archiveFiles()).toHaveLength(1);

    // Everything but the ninth post picked.
    const picked = found.posts.filter((p) => p.status === 'found' && p.position !== 8).map((p) => p.position);
    const started = await post(t, me, `${URL}/${found.id}/start`, { positions: picked });
    expect(started.statusCode).toBe(202);
    expect(started.json().import.total).toBe(10);
    const done = await ended(t, me, found.id);
    expect(done).toMatchObject({ total: 10, done: 10, failed: 0, pending: 0 });
    expect(done.posts[8].status).toBe('skipped');
    expect(archiveFiles()).toEqual([]); // the archive goes with the job

    const mine = await profilePosts(t, me);
    expect(mine).toHaveLength(10);
    // Newest first, each at its original date.
    const want = DOZEN.filter((_, i) => i !== 8 && i !== 11).reverse();
    expect(mine.map((p) => p.createdAt)).toEqual(want.map((p) => new Date(p.timestamp * 1000).toISOString()));
    const first = mine.at(-1)!;
    expect(first.message).toBe('Première neige à Montréal ❄️ #hiver #montréal');
    expect(first.tags).toEqual(['hiver', 'montréal']);
    const carousel = mine.find((p) => p.message.startsWith('Carousel'))!;
    expect(carousel.images).toHaveLength(3);
    expect(carousel.tags).toEqual(['sea', 'summer']);
    const untitled = mine.find((p) => p.createdAt.startsWith('2020-04'))!;
    expect(untitled).toMatchObject({ message: 'From Instagram', tags: ['instagram'] });
    // Each says where it came from, so readers see why it is dated years ago.
    expect(new Set(mine.map((p) => p.importedFrom))).toEqual(new Set(['instagram']));

    // Old news: the follower hears of none of it.
    const notes = await get(t, follower, '/api/notifications');
    expect(JSON.stringify(notes.json())).not.toContain(me.username);
  });

  it('is in the follower’s home feed at its date, under what was posted since', async () => {
    const me = await signIn(t.app);
    const follower = await signIn(t.app);
    expect((await follow(follower, me)).statusCode).toBeLessThan(300);
    // A post made today: the newest in the follower's home feed, before and after the import.
    const today = await createPost(t.app, me);
    const res = await upload(t, me, await instagramArchive([DOZEN[0], DOZEN[1]]));
    const id = res.json().import.id as string;
    await post(t, me, `${URL}/${id}/start`, { positions: [0, 1] });
    await ended(t, me, id);
    const home = await get(t, follower, '/api/posts?feed=following');
    const feed = home.json() as Post[];
    expect(feed[0]._id).toBe(today._id);
    expect(feed[0].importedFrom).toBeUndefined();
    expect(feed[1].importedFrom).toBe('instagram');
    expect(feed.slice(1).map((p) => p.createdAt)).toEqual(['2019-05-02T10:00:00.000Z', '2019-03-01T10:00:00.000Z']);
  });

  it('cuts a long caption and keeps the first tags a post may have', () => {
    const long = `${'word '.repeat(80)}${Array.from({ length: 25 }, (_, i) => `#t${i}`).join(' ')}`;
    const { message, tags } = postTextOf(long);
    expect(message.length).toBeLessThanOrEqual(MESSAGE_MAX);
    expect(message.endsWith('…')).toBe(true);
    expect(tags).toHaveLength(20);
    expect(tags[0]).toBe('t0');
    expect(fixMojibake('caf\u00c3\u00a9')).toBe('café');
    expect(fixMojibake('café')).toBe('café');
  });

  describe('refuses, with a message and nothing left behind,', () => {
    async function refused(archive: Buffer, message: RegExp) {
      const me = await signIn(t.app);
      const res = await upload(t, me, archive);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
      expect(archiveFiles()).toEqual([]);
      expect((await get(t, me, URL)).json().import).toBeNull();
    }

    it('a file that is no zip', () => refused(Buffer.from('not a zip at all'), /not a zip archive/));

    it('an archive with no posts list', async () =>
      refused(await zipOf([{ name: 'readme.txt', data: Buffer.from('hi') }]), /No posts in this archive/));

    it('a posts list that is broken JSON', async () =>
      refused(
        await zipOf([{ name: 'your_instagram_activity/media/posts_1.json', data: Buffer.from('[{"media": [') }]),
        /posts_1\.json is not valid JSON/,
      ));

    it('an entry named outside the archive', async () => {
      const archive = await instagramArchive([DOZEN[0]]);
      // yazl writes no such name: the same length, changed in the local header and the directory.
      const evil = Buffer.from(
        archive.toString('latin1').replaceAll('media/posts/201903/a.jpg', '../../../etc/201903/a.jp'),
        'latin1',
      );
      await refused(evil, /outside itself/);
    });

    it('a posts list naming a file outside the archive', async () => {
      const json = instagramJson([{ media: [{ uri: '../../secret.jpg', creation_timestamp: 1, title: 'x' }] }]);
      await refused(
        await zipOf([{ name: 'your_instagram_activity/media/posts_1.json', data: Buffer.from(json) }]),
        /outside the archive/,
      );
    });

    it('a zip bomb', async () =>
      refused(
        await zipOf([
          {
            name: 'your_instagram_activity/media/posts_1.json',
            data: Buffer.from(instagramJson(postsJson([DOZEN[0]]))),
          },
          { name: 'media/posts/201903/a.jpg', data: Buffer.alloc(16 * 1024 * 1024), compress: true },
        ]),
        /zip bomb/,
      ));

    it('media that are neither photos nor videos', async () => {
      const json = instagramJson([{ media: [{ uri: 'media/posts/page.html', creation_timestamp: 1, title: 'x' }] }]);
      await refused(
        await zipOf([
          { name: 'your_instagram_activity/media/posts_1.json', data: Buffer.from(json) },
          { name: 'media/posts/page.html', data: Buffer.from('<script>') },
        ]),
        /neither a photo nor a video/,
      );
    });
  });

  it('fails a post whose photo is no image, and keeps none of its uploads', async () => {
    const me = await signIn(t.app);
    const archive = await zipOf([
      {
        name: 'your_instagram_activity/media/posts_1.json',
        data: Buffer.from(
          instagramJson(postsJson([{ timestamp: 100, caption: 'fake', photos: ['x/fake.jpg', 'x/b.jpg'] }])),
        ),
      },
      { name: 'media/posts/x/b.jpg', data: await photo(9) },
      { name: 'media/posts/x/fake.jpg', data: Buffer.from('MZ this is a program, not a photo') },
    ]);
    const res = await upload(t, me, archive);
    const id = res.json().import.id as string;
    await post(t, me, `${URL}/${id}/start`, { positions: [0] });
    const done = await ended(t, me, id);
    expect(done).toMatchObject({ done: 0, failed: 1 });
    expect(done.posts[0].error).toBeTruthy();
    expect(await profilePosts(t, me)).toEqual([]);
    const media = await t.db.kysely.selectFrom('media').select('id').where('owner_id', '=', me.id).execute();
    expect(media).toEqual([]);
    expect(archiveFiles()).toEqual([]);
  });

  it('takes one open import per person, hides it from others, and cancels', async () => {
    const [me, other] = [await signIn(t.app), await signIn(t.app)];
    expect((await upload(t, null, await instagramArchive([DOZEN[0]]))).statusCode).toBe(401);
    const first = (await upload(t, me, await instagramArchive([DOZEN[0]]))).json().import as InstagramImport;
    expect((await upload(t, me, await instagramArchive([DOZEN[1]]))).statusCode).toBe(409);
    expect((await get(t, other, `${URL}/${first.id}`)).statusCode).toBe(404);
    expect((await post(t, other, `${URL}/${first.id}/cancel`)).statusCode).toBe(404);
    expect((await post(t, me, `${URL}/${first.id}/start`, { positions: 'all' })).statusCode).toBe(400);
    const cancelled = await post(t, me, `${URL}/${first.id}/cancel`);
    expect(cancelled.json().import).toMatchObject({ state: 'cancelled', done: 0 });
    expect(archiveFiles()).toEqual([]);
    expect((await post(t, me, `${URL}/${first.id}/start`, { positions: [0] })).statusCode).toBe(409);
  });

  it('removes an archive waiting for its picks when its person deletes their account', async () => {
    const [me, other] = [await signIn(t.app), await signIn(t.app)];
    const mine = (await upload(t, me, await instagramArchive([DOZEN[0]]))).json().import as InstagramImport;
    const theirs = (await upload(t, other, await instagramArchive([DOZEN[1]]))).json().import as InstagramImport;
    expect(archiveFiles()).toHaveLength(2);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: me.headers,
      payload: { password: me.password },
    });
    expect(deleted.statusCode).toBe(200);
    // The other person's archive stays, and their import goes on.
    expect(archiveFiles()).toHaveLength(1);
    expect((await get(t, other, `${URL}/${theirs.id}`)).json().import.state).toBe('ready');
    expect(await t.db.kysely.selectFrom('instagram_imports').select('id').where('id', '=', mine.id).execute()).toEqual(
      [],
    );
    expect((await post(t, other, `${URL}/${theirs.id}/cancel`)).statusCode).toBe(200);
    expect(archiveFiles()).toEqual([]);
  });

  it('finishes an import left by a process that stopped, once, on the next one', async () => {
    const me = await signIn(t.app);
    const res = await upload(t, me, await instagramArchive(DOZEN.slice(0, 4)));
    const found = res.json().import as InstagramImport;
    // What a process leaves when it stops mid-import: the job running, held by a lease that ran
    // out; the first post made, but its row not yet marked done.
    await t.db.kysely
      .updateTable('instagram_import_posts')
      .set({ status: 'pending' })
      .where('import_id', '=', found.id)
      .execute();
    await t.db.kysely
      .updateTable('instagram_imports')
      .set({ state: 'running', total: 4, claimed_until: Date.now() + 60 * 60_000 })
      .where('id', '=', found.id)
      .execute();
    const row = await t.db.kysely
      .selectFrom('instagram_import_posts')
      .selectAll()
      .where('import_id', '=', found.id)
      .where('position', '=', 0)
      .executeTakeFirstOrThrow();
    const upload0 = await t.app.ctx.media.upload(me.id, 'post', await photo(77));
    await t.app.ctx.posts.importArchived(
      { id: me.id, username: me.username, role: 'member', sessionId: '' },
      {
        id: row.post_id,
        message: 'made before the stop',
        tags: ['hiver'],
        photos: [{ image: upload0.secure_url, media_id: upload0.public_id, alt: '', crop: '' }],
        createdAt: row.taken_at,
        from: 'instagram',
      },
    );
    await t.db.kysely
      .updateTable('instagram_imports')
      .set({ claimed_until: Date.now() - 1000 })
      .where('id', '=', found.id)
      .execute();

    const next = await createTestApp({ INSTAGRAM_IMPORT_DIR: importsDir }, { sameDatabaseAs: t });
    try {
      const done = await ended(next, me, found.id);
      expect(done).toMatchObject({ total: 4, done: 4, failed: 0, pending: 0 });
      const mine = await profilePosts(next, me);
      expect(mine).toHaveLength(4);
      expect(new Set(mine.map((p) => p._id)).size).toBe(4);
      expect(mine.find((p) => p._id === row.post_id)?.message).toBe('made before the stop');
      expect(archiveFiles()).toEqual([]);
    } finally {
      await next.close();
    }
  });
});
