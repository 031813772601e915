/**
 * A full disk (issue 68, item 36): an upload whose file write fails with ENOSPC, and a post whose
 * SQLite insert fails with SQLITE_FULL, answer 507 `InsufficientStorage` with a message (not 500),
 * leave no file or row behind, and the health check says `storage: "full"` until a write succeeds.
 * The disk is filled by injection (no root, no tmpfs): `writeFile` writes half the bytes and then
 * fails as a full file system does, and SQLite is capped with `PRAGMA max_page_count`.
 */
import { readdirSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { createPost } from './factories';
import { type TestApp, createTestApp, signIn } from './helpers';
import { makeJpeg, postUpload } from './multipart';

const disk = vi.hoisted(() => ({ full: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsPromises>();
  const writeFile: typeof real.writeFile = async (file, data, options) => {
    if (!disk.full || !Buffer.isBuffer(data)) return real.writeFile(file, data, options);
    // As a full file system: some of the bytes reach the file, then the write fails.
    await real.writeFile(file, data.subarray(0, data.length >> 1), options);
    throw Object.assign(new Error(`ENOSPC: no space left on device, write '${String(file)}'`), {
      code: 'ENOSPC',
      errno: -28,
      syscall: 'write',
    });
  };
  return { ...real, default: { ...real, writeFile }, writeFile };
});

/** Every file under `folder`, relative. */
function filesUnder(folder: string): string[] {
  try {
    return readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    return [];
  }
}

describe('a full disk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    disk.full = false;
    await t?.close();
  });
  const health = async () => (await t.app.inject({ method: 'GET', url: '/api/instance/health' })).json();
  const mediaRows = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('media')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers an upload 507 InsufficientStorage, keeps no file or row, and health says so until a write succeeds', async () => {
    const ann = await signIn(t.app);
    expect(await health()).toMatchObject({ status: 'ok', storage: 'ok' });
    const filesBefore = filesUnder(t.config.mediaDir);
    const rowsBefore = await mediaRows();

    disk.full = true;
    const refused = await postUpload(t.app, ann, { data: await makeJpeg() });
    disk.full = false;
    expect(refused.statusCode).toBe(507);
    const body = refused.json();
    expect(body).toMatchObject({ code: 'InsufficientStorage', message: expect.stringMatching(/storage is full/) });
    expect(refused.body).not.toMatch(/ENOSPC|at .*\.ts/);
    expect(filesUnder(t.config.mediaDir)).toEqual(filesBefore);
    expect(await mediaRows()).toBe(rowsBefore);
    expect(await health()).toMatchObject({ status: 'ok', storage: 'full' });

    const stored = await postUpload(t.app, ann, { data: await makeJpeg() });
    expect(stored.statusCode).toBe(201);
    expect(await health()).toMatchObject({ storage: 'ok' });
  });

  it.runIf(process.env.TEST_DB !== 'postgres')(
    'answers a post 507 when SQLite is full (SQLITE_FULL), and keeps no row',
    async () => {
      const ann = await signIn(t.app);
      const first = await createPost(t.app, ann); // its image is stored before SQLite is capped
      const image = first.image as string;
      const posts = async () =>
        Number(
          (
            await t.db.kysely
              .selectFrom('posts')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await posts();
      const pages = Number(
        (await sql<{ page_count: number }>`PRAGMA page_count`.execute(t.db.kysely)).rows[0].page_count,
      );
      await sql.raw(`PRAGMA max_page_count = ${pages}`).execute(t.db.kysely);
      try {
        const long = 'A message that needs room. '.repeat(9);
        let refused;
        let accepted = 0;
        // Each post may fit in a page's free room: write until SQLite needs a page it may not add.
        for (let i = 0; i < 200; i++, accepted++) {
          refused = await t.app.inject({
            method: 'POST',
            url: '/api/posts/create',
            headers: ann.headers,
            payload: { message: long, tags: ['full'], image },
          });
          if (refused.statusCode !== 201) break;
        }
        expect(refused!.statusCode).toBe(507);
        expect(refused!.json()).toMatchObject({ code: 'InsufficientStorage' });
        expect(await health()).toMatchObject({ storage: 'full' });
        expect(await posts()).toBe(before + accepted); // the refused post's row is not there
      } finally {
        await sql.raw('PRAGMA max_page_count = 1073741823').execute(t.db.kysely);
      }
      await createPost(t.app, ann, { image });
      expect(await health()).toMatchObject({ storage: 'ok' });
    },
  );
});
