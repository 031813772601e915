import { existsSync } from 'node:fs';
import path from 'node:path';
import { deferredWritesSettled } from '../../server/media/service';
import { removeUnusedMedia, unusedMediaSweeper } from '../../server/media/unusedMedia';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { uploadImage } from './multipart';

let t: TestApp;
let alice: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
});

/** Sweeps every upload made until now (the grace period is the caller's cutoff). */
async function sweep(before = new Date(Date.now() + 1_000)): Promise<number> {
  await deferredWritesSettled();
  return removeUnusedMedia(t.db.kysely, t.app.ctx.storage, before);
}

/** Whether the upload's row and its folder of files are there. */
async function stored(upload: { public_id: string; secure_url: string }): Promise<{ row: boolean; files: boolean }> {
  const row = await t.db.kysely.selectFrom('media').select('id').where('id', '=', upload.public_id).executeTakeFirst();
  const key = upload.secure_url.slice(t.config.mediaBaseUrl.length + 1);
  return { row: row !== undefined, files: existsSync(path.join(t.config.mediaDir, path.dirname(key))) };
}
const kept = { row: true, files: true };
const removed = { row: false, files: false };

const manage = (postId: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: `/api/posts/${postId}/manage`, headers: alice.headers, payload });
const updateProfile = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: '/api/users/updateProfile', headers: alice.headers, payload });

describe('removing unused uploads', () => {
  it('removes an upload nothing uses, its row and every variant file, and its URL then answers 404', async () => {
    const upload = await uploadImage(t.app, alice, 'post');
    expect(await stored(upload)).toEqual(kept);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await stored(upload)).toEqual(removed);
    expect((await t.app.inject({ method: 'GET', url: upload.secure_url })).statusCode).toBe(404);
  });

  it('keeps uploads made after the cutoff, however unused', async () => {
    const upload = await uploadImage(t.app, alice, 'post');
    await sweep(new Date(Date.now() - 60_000));
    expect(await stored(upload)).toEqual(kept);
  });

  it("keeps a post's image while the post shows it: after an edit replaces it, and after the post is deleted, it goes", async () => {
    const post = await createPost(t.app, alice);
    const first = {
      public_id: (
        await t.db.kysely.selectFrom('posts').select('media_id').where('id', '=', post._id).executeTakeFirstOrThrow()
      ).media_id!,
      secure_url: post.image,
    };
    await sweep();
    expect(await stored(first)).toEqual(kept);

    const second = await uploadImage(t.app, alice, 'post');
    expect((await manage(post._id, { post: { image: second.secure_url } })).statusCode).toBe(200);
    await sweep();
    expect(await stored(first)).toEqual(removed);
    expect(await stored(second)).toEqual(kept);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/posts/${post._id}`, headers: alice.headers })).json().image,
    ).toBe(second.secure_url);

    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}/manage`, headers: alice.headers }))
        .statusCode,
    ).toBe(200);
    await sweep();
    expect(await stored(second)).toEqual(removed);
  });

  it('keeps the avatar and banner a profile shows, whatever preset they were uploaded with, and removes them once replaced or cleared', async () => {
    const avatar = await uploadImage(t.app, alice, 'avatar');
    const banner = await uploadImage(t.app, alice, 'post');
    expect((await updateProfile({ avatar: avatar.secure_url, banner: banner.secure_url })).statusCode).toBe(200);
    await sweep();
    expect(await stored(avatar)).toEqual(kept);
    expect(await stored(banner)).toEqual(kept);

    const newAvatar = await uploadImage(t.app, alice, 'avatar');
    expect((await updateProfile({ avatar: newAvatar.secure_url, banner: null })).statusCode).toBe(200);
    await sweep();
    expect(await stored(avatar)).toEqual(removed);
    expect(await stored(banner)).toEqual(removed);
    expect(await stored(newAvatar)).toEqual(kept);
  });

  it("does not keep an upload because another account's profile names the same URL", async () => {
    // Profiles only accept their own uploads; a row written straight into the database must not keep someone else's.
    const bob = await signIn(t.app);
    const upload = await uploadImage(t.app, alice, 'avatar');
    await t.db.kysely.updateTable('users').set({ avatar: upload.secure_url }).where('id', '=', bob.id).execute();
    await sweep();
    expect(await stored(upload)).toEqual(removed);
  });

  it('walks the table in batches: more uploads than one batch are all looked at', async () => {
    const rows = Array.from({ length: 1_203 }, (_, i) => ({
      id: `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
      owner_id: alice.id,
      preset: 'post' as const,
      storage_key: `post/bulk-${i}/1080.jpg`,
      variants: '[]',
      width: 1,
      height: 1,
      format: 'jpg',
      bytes: 1,
      thumbhash: null,
      created_at: '2020-01-01T00:00:00.000Z',
    }));
    for (let i = 0; i < rows.length; i += 200)
      await t.db.kysely
        .insertInto('media')
        .values(rows.slice(i, i + 200))
        .execute();
    expect(await sweep()).toBeGreaterThanOrEqual(1_203);
    const left = await t.db.kysely
      .selectFrom('media')
      .select('id')
      .where('storage_key', 'like', 'post/bulk-%')
      .execute();
    expect(left).toEqual([]);
  });
});

describe('the sweeper', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps soon after start and then on its interval, for uploads older than the grace period, and stops when closed', async () => {
    const cutoffs: number[] = [];
    const sweeper = unusedMediaSweeper(
      async (before) => {
        cutoffs.push(before.getTime());
        return 0;
      },
      {
        graceMs: 24 * 3_600_000,
        firstAfterMs: 60_000,
        everyMs: 3_600_000,
      },
    );
    sweeper.start();
    const started = Date.now();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(cutoffs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(cutoffs).toEqual([started + 60_000 - 24 * 3_600_000]);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(cutoffs).toHaveLength(2);
    await sweeper.close();
    await vi.advanceTimersByTimeAsync(10 * 3_600_000);
    expect(cutoffs).toHaveLength(2);
  });

  it('reports each sweep (how many it removed, or its error) and after a failure tries again on the next interval', async () => {
    const reports: unknown[] = [];
    let calls = 0;
    const sweeper = unusedMediaSweeper(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database is locked');
        return 3;
      },
      {
        graceMs: 1_000,
        firstAfterMs: 10,
        everyMs: 100,
        onDone: (n) => reports.push(n),
        onError: (error) => reports.push((error as Error).message),
      },
    );
    sweeper.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(reports).toEqual(['database is locked']);
    await vi.advanceTimersByTimeAsync(100);
    expect(reports).toEqual(['database is locked', 3]);
    await sweeper.close();
  });
});
