/**
 * The audience rule (`server/domain/audience.ts`, issue 70): every audience, every way a reader can
 * stand to the post (its author, following them, named in it, both, neither), in every place, said
 * the same by the in-memory rule and by its SQL, and as docs/API.md's table says.
 */
import { AUDIENCES, type Audience } from '../../lib/audience';
import { type AudiencePlace, audienceAdmits, audienceAllows } from '../../server/domain/audience';
import { newId } from '../../server/domain/ids';
import { userRow } from './factories';
import { createTestDatabase } from './testDatabase';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

const STANDINGS = ['author', 'follower', 'mentioned', 'mentioned follower', 'stranger'] as const;
type Standing = (typeof STANDINGS)[number];
const PLACES: AudiencePlace[] = ['public', 'home', 'content'];

/** The table of docs/API.md ("Who sees a post"), written out: who may see each audience where. */
function expected(audience: Audience, standing: Standing, place: AudiencePlace): boolean {
  if (audience === 'public') return true;
  if (place === 'public') return false;
  if (standing === 'author' || audience === 'unlisted') return true;
  if (audience === 'followers') return standing === 'follower' || standing === 'mentioned follower';
  return standing === 'mentioned' || standing === 'mentioned follower';
}

async function person() {
  const id = newId();
  await db.kysely
    .insertInto('users')
    .values(userRow(`a${id.replace(/-/g, '').slice(-12)}`, { id }))
    .execute();
  return (await db.kysely
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow())!;
}

describe('who may see a post by its audience', () => {
  it('the rule in memory and in SQL agree with the table, for every audience, standing and place', async () => {
    const k = db.kysely;
    const now = new Date().toISOString();
    const author = await person();
    for (const standing of STANDINGS) {
      const reader = standing === 'author' ? author : await person();
      const follows = standing.includes('follower');
      if (follows)
        await k
          .insertInto('follows')
          .values({ id: newId(), follower_id: reader.id, followee_id: author.id, created_at: now })
          .execute();
      for (const audience of AUDIENCES) {
        const id = newId();
        await k
          .insertInto('posts')
          .values({
            ...{ id, creator_id: author.id, message: 'm', image: '/media/x.jpg', tags: '[]', audience },
            ...{ created_at: now, updated_at: now },
          })
          .execute();
        const mentioned = standing.startsWith('mentioned');
        if (mentioned) await k.insertInto('post_mentions').values({ post_id: id, user_id: reader.id }).execute();
        const row = { creator_id: author.id, audience, mentions: mentioned ? `someone,${reader.username}` : 'someone' };
        const inMemory = { id: reader.id, nameKey: reader.username.toLowerCase(), follows: () => follows };
        for (const place of PLACES) {
          const sql = await k
            .selectFrom('posts')
            .select('posts.id')
            .where('posts.id', '=', id)
            .where(audienceAllows(k, reader.id, place))
            .execute();
          const want = expected(audience, standing, place);
          const where = `${audience} post, ${standing}, ${place}`;
          expect(audienceAdmits(row, inMemory, place), `${where} (memory)`).toBe(want);
          expect(sql.length === 1, `${where} (SQL)`).toBe(want);
        }
      }
    }
  });

  it('nobody signed in is named by no post', () => {
    const nobody = { id: newId(), nameKey: '', follows: () => false };
    const row = { creator_id: newId(), audience: 'mentioned' as const, mentions: '' };
    expect(audienceAdmits(row, nobody, 'content')).toBe(false);
    expect(audienceAdmits({ ...row, mentions: null }, nobody, 'content')).toBe(false);
  });
});
