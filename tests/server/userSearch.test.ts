import { CompiledQuery, sql } from 'kysely';
import type { PersonResult } from '../../lib/types';
import { usersInRange } from '../../server/users/repository';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
let me: SignedInUser;
// Each test file has its own database: a fixed prefix (its last letter's successor is a letter too).
const prefix = 'srchpeople';
beforeAll(async () => {
  t = await createTestApp();
  me = await signIn(t.app, { username: `${prefix}_Me` });
  // 25 people under the prefix, one under a neighbouring prefix, one with '.' right after it.
  for (let i = 0; i < 25; i += 1) await signIn(t.app, { username: `${prefix}${String(i).padStart(2, '0')}` });
  await signIn(t.app, {
    username: `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}x`,
  });
  await signIn(t.app, { username: `${prefix}.dot` });
});
afterAll(async () => {
  await t.close();
});

const search = (q: string, user: SignedInUser | null = me) =>
  t.app.inject({ method: 'GET', url: `/api/users/search?q=${encodeURIComponent(q)}`, headers: user?.headers ?? {} });

describe('GET /api/users/search', () => {
  it('finds people by the start of their username, ignoring case, at most 20, by name', async () => {
    const res = await search(prefix.toUpperCase());
    expect(res.statusCode).toBe(200);
    const people: PersonResult[] = res.json();
    expect(people).toHaveLength(20);
    const names = people.map((p) => p.username);
    expect(names).toEqual([...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(names.every((n) => n.toLowerCase().startsWith(prefix))).toBe(true);
    expect(names[0]).toBe(`${prefix}.dot`);
    expect(people[1]).toEqual({
      _id: expect.any(String),
      username: `${prefix}00`,
      avatar: null,
      description: '',
      followedByMe: false,
    });
  });

  it('narrows as the prefix grows, takes a leading @, and says whom I follow', async () => {
    await t.app.inject({ method: 'PATCH', url: `/api/users/${prefix}07/follow`, headers: me.headers });
    const res = await search(`@${prefix}0`);
    const people: PersonResult[] = res.json();
    expect(people.map((p) => p.username)).toEqual(Array.from({ length: 10 }, (_, i) => `${prefix}0${i}`));
    expect(people.filter((p) => p.followedByMe).map((p) => p.username)).toEqual([`${prefix}07`]);
    expect((await search(`${prefix}_m`)).json().map((p: PersonResult) => p.username)).toEqual([`${prefix}_Me`]);
    expect((await search(`${prefix}.`)).json().map((p: PersonResult) => p.username)).toEqual([`${prefix}.dot`]);
    expect((await search('zzzznobody')).json()).toEqual([]);
  });

  it('refuses an empty prefix, characters a username cannot have, and visitors', async () => {
    for (const q of ['', '@', '  ']) {
      const res = await search(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toEqual({ message: 'Type at least one character to search people', code: 'InvalidSearch' });
    }
    for (const q of ['a b', 'ann%', 'x'.repeat(31), 'é']) {
      const res = await search(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code, q).toBe('InvalidSearch');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/users/search', headers: me.headers })).statusCode).toBe(400);
    const visitor = await search('ann', null);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().code).toBe('Unauthorized');
  });

  it('reads a range of an index on the lower-cased username, never the whole table', async () => {
    const db = t.db.kysely;
    const query = usersInRange(db, { viewerId: me.id, from: 'ab', to: 'ac' }).compile();
    if (t.db.dialect === 'sqlite') {
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
      );
      const users = plan.rows.map((r) => r.detail).filter((d) => /\busers\b/.test(d));
      expect(users).toEqual([
        expect.stringMatching(/^SEARCH users USING (COVERING )?INDEX \S+ \(username_lower>\? AND username_lower<\?\)$/),
      ]);
      expect(plan.rows.some((r) => r.detail.startsWith('SCAN'))).toBe(false);
    } else {
      // A tiny table is cheaper to scan: forbid that, and the planner must still find the index.
      await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
        );
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text).toMatch(/Index (Only )?Scan using users_username_prefix_idx on users/);
        expect(text).not.toMatch(/Seq Scan on users/);
        expect(text).not.toMatch(/Sort/);
      });
    }
  });
});
