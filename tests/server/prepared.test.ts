import { prepared } from '../../server/db/prepared';
import { type TestApp, createTestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const now = new Date().toISOString();
  await t.db.kysely.insertInto('users').values(['ann', 'bob', 'cy', 'dee'].map((name, i) => ({
    id: `00000000-0000-7000-8000-00000000000${i}`, username: name, username_lower: name, email: `${name}@example.com`,
    password_hash: 'x', role: 'member' as const, avatar: null, banner: null, description: name === 'bob' ? 'kept' : '', created_at: now, updated_at: now,
  }))).execute();
});
afterAll(async () => { await t.close(); });

// A constant in the builder ('kept') stays where it is; the values change per call.
const users = prepared((db, v: { after: string | null; names: string[]; limit: number }) => {
  let query = db.selectFrom('users').select('username').where((eb) => eb.or([eb('username', 'in', v.names), eb('description', '=', 'kept')]));
  if (v.after) query = query.where('username', '>', v.after);
  return query.orderBy('username').limit(v.limit);
});
const names = (rows: { username: string }[]) => rows.map((r) => r.username);

describe('prepared queries', () => {
  it('run each shape with new values, as the builder would', async () => {
    const k = t.db.kysely;
    expect(names(await users(k, { after: null, names: ['ann', 'cy'], limit: 10 }))).toEqual(['ann', 'bob', 'cy']);
    expect(names(await users(k, { after: null, names: ['dee', 'ann'], limit: 2 }))).toEqual(['ann', 'bob']);
    expect(names(await users(k, { after: 'ann', names: ['ann', 'cy'], limit: 10 }))).toEqual(['bob', 'cy']);
    expect(names(await users(k, { after: null, names: ['dee'], limit: 10 }))).toEqual(['bob', 'dee']);
    expect(names(await users(k, { after: 'bob', names: ['ann', 'cy', 'dee'], limit: 1 }))).toEqual(['cy']);
    // Inside a transaction too.
    await k.transaction().execute(async (trx) => {
      expect(names(await users(trx, { after: null, names: ['cy'], limit: 10 }))).toEqual(['bob', 'cy']);
    });
  });

  it('refuse a builder that computes with a value instead of passing it on', async () => {
    const computed = prepared((db, v: { limit: number }) => db.selectFrom('users').select('username').limit(v.limit + 1));
    await expect(computed(t.db.kysely, { limit: 1 })).rejects.toThrow('used as more than a value');
  });
});
