/**
 * Issue 76, item 2: follows, blocks and mutes in and out as Mastodon's CSV lists. Exports as
 * Mastodon writes them; imports merged or overwriting, refused with a code when the file is no
 * list; one person's imports hidden from another; a job left by a process that stopped is
 * finished by the next one on the same database.
 */
import { accountListsRepository } from '../../server/accountLists/repository';
import { importWorker } from '../../server/accountLists/worker';
import { multipartBody } from './multipart';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
let host: string;
beforeAll(async () => {
  t = await createTestApp();
  host = new URL(t.config.siteUrl).host;
});
afterAll(async () => {
  await t.close();
});

const get = (user: SignedInUser | null, url: string) =>
  t.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });
const patch = (user: SignedInUser, url: string) => t.app.inject({ method: 'PATCH', url, headers: user.headers });

function upload(
  app: TestApp,
  user: SignedInUser | null,
  fields: { type?: string; mode?: string; csv?: string | Buffer; filename?: string },
) {
  const parts = [];
  if (fields.type !== undefined) parts.push({ name: 'type', value: fields.type });
  if (fields.mode !== undefined) parts.push({ name: 'mode', value: fields.mode });
  if (fields.csv !== undefined)
    parts.push({
      name: 'file',
      filename: fields.filename ?? 'list.csv',
      contentType: 'text/csv',
      data: Buffer.isBuffer(fields.csv) ? fields.csv : Buffer.from(fields.csv),
    });
  const body = multipartBody(parts);
  return app.app.inject({
    method: 'POST',
    url: '/api/users/me/list-imports',
    payload: body.payload,
    headers: { ...body.headers, ...user?.headers },
  });
}

interface Progress {
  id: string;
  state: string;
  total: number;
  done: number;
  failed: number;
  pending: number;
  failures: { line: number; address: string; error: string }[];
}

/** The import once it has finished (the worker's rows included); the test's timeout bounds the wait. */
async function finished(app: TestApp, user: SignedInUser, id: string): Promise<Progress> {
  for (;;) {
    const res = await app.app.inject({ method: 'GET', url: `/api/users/me/list-imports/${id}`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json().import as Progress;
    if (job.state === 'finished') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const people = () => Promise.all(['Ann', 'bob', 'cat', 'dan'].map(() => signIn(t.app)));

describe('export', () => {
  it('writes follows, blocks and mutes as Mastodon does, people here as name@host, newest first', async () => {
    const [me, a, b, c] = await people();
    await patch(me, `/api/users/${a.username}/follow`);
    await patch(me, `/api/users/${b.username}/follow`);
    await patch(me, `/api/users/${c.username}/block`);
    await patch(me, `/api/users/${a.username}/mute`);

    const follows = await get(me, '/api/users/me/export/follows.csv');
    expect(follows.statusCode).toBe(200);
    expect(follows.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(follows.headers['content-disposition']).toBe('attachment; filename="following_accounts.csv"');
    expect(follows.body).toBe(
      'Account address,Show boosts,Notify on new posts,Languages\n' +
        `${b.username}@${host},true,false,\n${a.username}@${host},true,false,\n`,
    );
    const blocks = await get(me, '/api/users/me/export/blocks.csv');
    expect(blocks.headers['content-disposition']).toBe('attachment; filename="blocked_accounts.csv"');
    expect(blocks.body).toBe(`${c.username}@${host}\n`);
    const mutes = await get(me, '/api/users/me/export/mutes.csv');
    expect(mutes.headers['content-disposition']).toBe('attachment; filename="muted_accounts.csv"');
    expect(mutes.body).toBe(`Account address,Hide notifications\n${a.username}@${host},true\n`);
  });

  it('is for the signed-in only, and each person gets their own list', async () => {
    expect((await get(null, '/api/users/me/export/follows.csv')).statusCode).toBe(401);
    const [me, other] = await people();
    await patch(other, `/api/users/${me.username}/follow`);
    expect((await get(me, '/api/users/me/export/follows.csv')).body).toBe(
      'Account address,Show boosts,Notify on new posts,Languages\n',
    );
  });
});

describe('import', () => {
  const followees = async (user: SignedInUser) =>
    (
      await t.db.kysely
        .selectFrom('follows')
        .innerJoin('users', 'users.id', 'follows.followee_id')
        .select('users.username')
        .where('follower_id', '=', user.id)
        .execute()
    )
      .map((r) => r.username)
      .sort();

  it('merges a follows file: people here are followed at once, the rest kept', async () => {
    const [me, a, b, c] = await people();
    await patch(me, `/api/users/${c.username}/follow`);
    const csv =
      'Account address,Show boosts,Notify on new posts,Languages\n' +
      `${a.username}@${host},true,false,\n@${b.username},false,true,"en, de"\n${a.username.toUpperCase()}@${host},true,false,\n`;
    const res = await upload(t, me, { type: 'follows', mode: 'merge', csv });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().import).toMatchObject({
      type: 'follows',
      mode: 'merge',
      total: 2,
      done: 2,
      failed: 0,
      pending: 0,
    });
    expect(await followees(me)).toEqual([a.username, b.username, c.username].sort());
    // Counted and notified as a follow through the API is.
    const profile = (await get(me, `/api/users/${a.username}`)).json().user;
    expect(profile.followedByMe).toBe(true);
  });

  it('overwrites: follows the file does not name are undone; unknown people are failed rows', async () => {
    const [me, a, b, c] = await people();
    await patch(me, `/api/users/${a.username}/follow`);
    await patch(me, `/api/users/${c.username}/follow`);
    const csv = `${b.username}\n${a.username}@${host}\nnobody_here_at_all\n`;
    const res = await upload(t, me, { type: 'follows', mode: 'overwrite', csv });
    expect(res.statusCode, res.body).toBe(202);
    const job = await finished(t, me, res.json().import.id);
    expect(job).toMatchObject({ total: 3, done: 2, failed: 1, pending: 0 });
    expect(job.failures).toEqual([{ line: 3, address: 'nobody_here_at_all', error: 'User not found' }]);
    expect(await followees(me)).toEqual([a.username, b.username].sort());
    const [{ following_count }] = await t.db.kysely
      .selectFrom('users')
      .select('following_count')
      .where('id', '=', me.id)
      .execute();
    expect(Number(following_count)).toBe(2);
  });

  it('imports blocks and mutes (merge and overwrite), a header-less file too', async () => {
    const [me, a, b, c] = await people();
    await patch(me, `/api/users/${c.username}/mute`);
    const blocks = await upload(t, me, { type: 'blocks', mode: 'merge', csv: `${a.username}@${host}\r\n\r\n` });
    expect(blocks.json().import).toMatchObject({ done: 1, state: 'finished' });
    expect((await get(me, `/api/users/${a.username}`)).json().user.blockedByMe).toBe(true);
    const mutes = await upload(t, me, {
      type: 'mutes',
      mode: 'overwrite',
      csv: `Account address,Hide notifications\n${b.username}@${host},false\n`,
    });
    expect(mutes.json().import).toMatchObject({ done: 1, state: 'finished' });
    const muted = (await get(me, '/api/users/me/mutes')).json() as { username: string }[];
    expect(muted.map((u) => u.username)).toEqual([b.username]);
    // Round trip: the export reads back as the same list.
    const exported = (await get(me, '/api/users/me/export/mutes.csv')).body;
    const again = await upload(t, me, { type: 'mutes', mode: 'overwrite', csv: exported });
    expect(again.json().import).toMatchObject({ total: 1, done: 1, failed: 0 });
  });

  it('fails the rows it cannot apply, with the reason: yourself, people elsewhere without federation', async () => {
    const [me] = await people();
    const res = await upload(t, me, {
      type: 'follows',
      mode: 'merge',
      csv: `${me.username}\nsomeone@elsewhere.example\n"two words"\n`,
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await finished(t, me, res.json().import.id);
    expect(job).toMatchObject({ total: 3, done: 0, failed: 3 });
    expect(job.failures.map((f) => f.line)).toEqual([1, 2, 3]);
    expect(job.failures[0].error).toBe('You cannot follow yourself');
    expect(job.failures[1].error).toMatch(/does not federate/);
    expect(job.failures[2]).toEqual({ line: 3, address: 'two words', error: 'Not an account address' });
  });

  it.each([
    ['not UTF-8', Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a]), 'NotCsv'],
    ['a broken quote', 'Account address\n"alice@example.com\n', 'NotCsv'],
    ['no rows', '\n\n', 'EmptyList'],
    ['a header only', 'Account address,Show boosts,Notify on new posts,Languages\n', 'EmptyList'],
    ['another list', '#domain\nexample.com\n', 'WrongHeader'],
    ['a header of its own', 'Name,Notes\nalice,hi\n', 'WrongHeader'],
    ['a list of another kind', 'Account address,Hide notifications\nalice@example.com,true\n', 'WrongListType'],
    ['too many rows', `Account address\n${'a@example.com\n'.repeat(10_001)}`, 'TooManyRows'],
  ])('refuses %s with 400 and its code, keeping nothing', async (_, csv, code) => {
    const [me] = await people();
    const res = await upload(t, me, { type: 'follows', mode: 'merge', csv });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe(code);
    expect(res.json().message).toBeTruthy();
    const kept = await t.db.kysely
      .selectFrom('account_list_imports')
      .select('id')
      .where('user_id', '=', me.id)
      .execute();
    expect(kept).toEqual([]);
  });

  it('refuses a missing or wrong type or mode, no file, a file too large, and a body not multipart', async () => {
    const [me] = await people();
    const cases = [
      [{ mode: 'merge', csv: 'a\n' }, 400],
      [{ type: 'bookmarks', mode: 'merge', csv: 'a\n' }, 400],
      [{ type: 'follows', mode: 'replace', csv: 'a\n' }, 400],
      [{ type: 'follows', mode: 'merge' }, 400],
      [{ type: 'follows', mode: 'merge', csv: Buffer.alloc(2 * 1024 * 1024 + 1, 'a') }, 413],
    ] as const;
    for (const [fields, status] of cases) {
      const res = await upload(t, me, fields);
      expect(res.statusCode, `${JSON.stringify({ ...fields, csv: undefined })}: ${res.body}`).toBe(status);
    }
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/list-imports',
      headers: me.headers,
      payload: { type: 'follows' },
    });
    expect(json.statusCode).toBe(415);
  });

  it('is for the signed-in only; one person never sees another person’s import', async () => {
    expect((await upload(t, null, { type: 'follows', mode: 'merge', csv: 'a\n' })).statusCode).toBe(401);
    expect((await get(null, '/api/users/me/list-imports')).statusCode).toBe(401);
    const [me, other, a] = await people();
    const res = await upload(t, me, { type: 'blocks', mode: 'merge', csv: `${a.username}\n` });
    const id = res.json().import.id as string;
    expect((await get(other, `/api/users/me/list-imports/${id}`)).statusCode).toBe(404);
    expect((await get(other, '/api/users/me/list-imports')).json().imports).toEqual([]);
    expect((await get(me, '/api/users/me/list-imports')).json().imports.map((i: { id: string }) => i.id)).toEqual([id]);
  });

  it('finishes an import left running by a process that stopped, once, on the next one', async () => {
    const [me, a, b] = await people();
    // What a process leaves when it stops mid-import: the job held by a lease that ran out, rows pending.
    const id = '01900000-0000-7000-8000-0000000000aa';
    await t.db.kysely
      .insertInto('account_list_imports')
      .values({
        id,
        user_id: me.id,
        kind: 'follows',
        mode: 'merge',
        state: 'running',
        total: 2,
        claimed_until: Date.now() - 1000,
        created_at: new Date().toISOString(),
        finished_at: null,
      })
      .execute();
    await t.db.kysely
      .insertInto('account_list_import_rows')
      .values([
        { import_id: id, line: 1, address: a.username, status: 'done', error: null },
        { import_id: id, line: 2, address: `${b.username}@${host}`, status: 'pending', error: null },
      ])
      .execute();
    const next = await createTestApp({}, { sameDatabaseAs: t });
    try {
      const job = await finished(next, me, id);
      expect(job).toMatchObject({ done: 2, failed: 0, pending: 0 });
      // The row left done is not applied again: only the pending one was.
      expect(await followees(me)).toEqual([b.username]);
    } finally {
      await next.close();
    }
  });

  it('takes one import at a time per person (409 while one runs)', async () => {
    const [me] = await people();
    await t.db.kysely
      .insertInto('account_list_imports')
      .values({
        id: '01900000-0000-7000-8000-0000000000bb',
        user_id: me.id,
        kind: 'blocks',
        mode: 'merge',
        state: 'running',
        total: 0,
        // Held far ahead: no worker takes it during the test.
        claimed_until: Date.now() + 3_600_000,
        created_at: new Date().toISOString(),
        finished_at: null,
      })
      .execute();
    const res = await upload(t, me, { type: 'follows', mode: 'merge', csv: 'someone\n' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ImportRunning');
  });
});

describe('the worker', () => {
  it('lets a job go between two rows when the server stops, released, still running', async () => {
    const [me] = await people();
    const id = '01900000-0000-7000-8000-0000000000cc';
    // Held far ahead, so that the app's own worker leaves it to this one.
    await t.db.kysely
      .insertInto('account_list_imports')
      .values({
        id,
        user_id: me.id,
        kind: 'follows',
        mode: 'merge',
        state: 'running',
        total: 0,
        claimed_until: Date.now() + 3_600_000,
        created_at: new Date().toISOString(),
        finished_at: null,
      })
      .execute();
    const repo = accountListsRepository(t.db.kysely);
    let entered!: () => void;
    const running = new Promise<void>((resolve) => (entered = resolve));
    const errors: unknown[] = [];
    const released: string[] = [];
    let claimed = false;
    const worker = importWorker({
      repo: {
        ...repo,
        // This job once, as a claim of the real table would hand it over.
        claim: async (_now, until) => {
          if (claimed) return undefined;
          claimed = true;
          await repo.extendClaim(id, until);
          return id;
        },
        release: async (jobId) => void released.push(jobId),
      },
      // A job of endless rows: each row asks to keep holding it, as the service does.
      run: async (jobId, keepHolding) => {
        expect(jobId).toBe(id);
        entered();
        for (;;) {
          await keepHolding();
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      },
      onError: (error) => errors.push(error),
    });
    worker.start();
    await running;
    // Resolves although the job never ends: it stops after the row in hand.
    await worker.close();
    expect(released).toEqual([id]);
    expect(errors).toEqual([]);
    const job = await t.db.kysely
      .selectFrom('account_list_imports')
      .select('state')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(job.state).toBe('running');
  });
});
