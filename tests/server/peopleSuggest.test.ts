import type { PersonResult } from '../../lib/types';
import { remoteUserRow, userRow } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

// GET /api/people/suggest: the list an `@` being typed opens (issue 68, item 31).
let t: TestApp;
let me: SignedInUser;
// Each test file has its own database; the prefix only keeps the names apart from the signed-in ones.
const p = 'sugg';
const LIMIT = 30;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_SUGGESTIONS_PER_USER: String(LIMIT) });
  me = await signIn(t.app, { username: `${p}_me` });
  for (const name of ['aa', 'ab', 'ac', 'ad', 'ae', 'af', 'zed', 'blocked', 'blocker'])
    await signIn(t.app, { username: `${p}_${name}` });
  await t.db.kysely
    .insertInto('users')
    .values([
      userRow(`${p}_gone`, { suspended_at: new Date().toISOString() }),
      { ...remoteUserRow('far.example'), username: `${p}_al@far.example`, username_lower: `${p}_al@far.example` },
      {
        ...remoteUserRow('far.example', { suspended_at: new Date().toISOString() }),
        username: `${p}_bad@far.example`,
        username_lower: `${p}_bad@far.example`,
      },
    ])
    .execute();
  // Followed: zed (last by name) and ac; blocked one way and the other.
  for (const name of ['zed', 'ac'])
    await t.app.inject({ method: 'PATCH', url: `/api/users/${p}_${name}/follow`, headers: me.headers });
  await t.app.inject({ method: 'PATCH', url: `/api/users/${p}_blocked/block`, headers: me.headers });
  const blocker = await signIn(t.app, { username: `${p}_blocker2` });
  await t.app.inject({ method: 'PATCH', url: `/api/users/${p}_me/block`, headers: blocker.headers });
});
afterAll(async () => {
  await t.close();
});

const suggest = (query: string, user: SignedInUser | null = me) =>
  t.app.inject({ method: 'GET', url: `/api/people/suggest?${query}`, headers: user?.headers ?? {} });
const names = async (query: string) => ((await suggest(query)).json() as PersonResult[]).map((r) => r.username);

describe('GET /api/people/suggest', () => {
  it('puts the people I follow first, then the others by name, local and remote, never me', async () => {
    const res = await suggest(`q=${p}_`);
    expect(res.statusCode).toBe(200);
    const people: PersonResult[] = res.json();
    expect(people.map((r) => r.username)).toEqual([
      `${p}_ac`,
      `${p}_zed`,
      `${p}_aa`,
      `${p}_ab`,
      `${p}_ad`,
      `${p}_ae`,
      `${p}_af`,
      `${p}_al@far.example`,
      // 8 by default: `${p}_blocker` is the ninth.
    ]);
    expect(people[0]).toEqual({
      _id: expect.any(String),
      username: `${p}_ac`,
      avatar: null,
      description: '',
      followedByMe: true,
    });
    expect(people.slice(2).every((r) => !r.followedByMe)).toBe(true);
  });

  it('narrows by the prefix (a leading @ taken, case ignored) and takes a limit up to 20', async () => {
    expect(await names(`q=@${p.toUpperCase()}_A&limit=20`)).toEqual([
      `${p}_ac`,
      `${p}_aa`,
      `${p}_ab`,
      `${p}_ad`,
      `${p}_ae`,
      `${p}_af`,
      `${p}_al@far.example`,
    ]);
    expect(await names(`q=${p}_z`)).toEqual([`${p}_zed`]);
    expect(await names(`q=${p}_a&limit=2`)).toEqual([`${p}_ac`, `${p}_aa`]);
    expect(await names(`q=${encodeURIComponent(`${p}_al@fa`)}`)).toEqual([`${p}_al@far.example`]);
    expect(await names('q=nobodyhere')).toEqual([]);
  });

  it('never suggests the suspended, the people I block or those who block me', async () => {
    const all = await names(`q=${p}_&limit=20`);
    expect(all).not.toContain(`${p}_gone`);
    expect(all).not.toContain(`${p}_bad@far.example`);
    expect(all).not.toContain(`${p}_blocked`);
    expect(all).not.toContain(`${p}_blocker2`);
    expect(all).not.toContain(`${p}_me`);
    expect(all).toContain(`${p}_blocker`);
  });

  it('refuses a bad q or limit with 400, and visitors with 401', async () => {
    for (const q of ['', '@']) {
      const res = await suggest(`q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toEqual({ message: 'Type at least one character to search people', code: 'InvalidSearch' });
    }
    for (const q of ['a b', 'ann%', 'é', 'a@b@c', 'x'.repeat(101), 'x'.repeat(600)]) {
      const res = await suggest(`q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(400);
      if (q.length <= 500) expect(res.json().code, q).toBe('InvalidSearch');
    }
    expect((await suggest('q=' + 'x'.repeat(101))).json().message).toBe(
      "Type the start of a username: at most 100 letters, digits, _ . - and one @ before a server's name",
    );
    for (const limit of ['0', '21', 'many']) expect((await suggest(`q=ab&limit=${limit}`)).statusCode, limit).toBe(400);
    expect((await suggest('')).statusCode).toBe(400);
    const visitor = await suggest('q=ab', null);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().code).toBe('Unauthorized');
  });

  it('is rate limited per user: 429 with Retry-After past the limit', async () => {
    const busy = await signIn(t.app);
    for (let i = 0; i < LIMIT; i += 1) expect((await suggest('q=ab', busy)).statusCode).toBe(200);
    const refused = await suggest('q=ab', busy);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RateLimited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Someone else is not counted with them.
    expect((await suggest('q=ab')).statusCode).toBe(200);
  });
});
