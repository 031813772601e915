/**
 * The timelines' kept answers (`statusViews.ts`, `listJson`): an answer is sent again only while
 * it would be written the same. Each case changes one thing the answer is written from.
 */
import { describe, expect, it } from 'vitest';
import type { Post } from '../../../lib/types';
import { usernameKey } from '../../../lib/validation';
import { statusesOfPosts } from '../../../server/mastodon/statuses';
import type { ClientServices } from '../../../server/mastodon/support';
import { cacheRegistry } from '../../../server/cache/registry';
import { statusViews } from '../../../server/mastodon/statusViews';
import type { AuthorFacts } from '../../../server/users/mappers';

const SITE = 'https://posts.example';

const facts = (username: string, description = ''): AuthorFacts => ({
  _id: `0190a000-0000-7000-8000-${username.padStart(12, '0').slice(-12)}`,
  username,
  displayName: null,
  fields: [],
  discoverable: true,
  approveFollowers: false,
  avatar: null,
  banner: null,
  description,
  followersCount: 1,
  followingCount: 2,
  postsCount: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  language: null,
});

let n = 0;
const post = (creator: string, changes: Partial<Post> = {}): Post => ({
  _id: `0190b000-0000-7000-8000-${String(++n).padStart(12, '0')}`,
  audience: 'public',
  message: `Hello from ${creator}`,
  image: '/media/post/a/1080.jpg',
  imageInfo: null,
  tags: [],
  creator,
  creatorImage: null,
  likesCount: 0,
  dislikesCount: 0,
  commentsCount: 0,
  myReaction: null,
  alt: '',
  sensitive: false,
  spoiler: '',
  createdAt: '2026-11-27T00:00:00.000Z',
  updatedAt: '2026-11-27T00:00:00.000Z',
  images: [{ image: '/media/post/a/1080.jpg', imageInfo: null, alt: '', crop: { x: 0.5, y: 0.5, fit: false } }],
  ...changes,
});

/**
 * The authors' cache as the services show it: `kept` is what it holds now, `database` what a read
 * finds besides (a person kept is found as kept); reads are counted.
 */
function fakeServices(people: AuthorFacts[]) {
  const kept = new Map(people.map((f) => [usernameKey(f.username), f]));
  const database = new Map<string, AuthorFacts>();
  let reads = 0;
  const users = {
    authorsByKey: async (keys: readonly string[]) => {
      reads++;
      const found = (k: string) => kept.get(k) ?? database.get(k);
      return new Map(keys.flatMap((k) => (found(k) ? [[k, found(k)!] as const] : [])));
    },
    authorsNamed: async (names: string[]) => users.authorsByKey(names.map(usernameKey)),
    authorKept: (key: string) => kept.get(key),
  };
  const views = statusViews(cacheRegistry(), users);
  const statusListJson = (_: unknown, site: string, posts: Post[], key: string) => views.listJson(site, posts, key);
  return { services: { users } as unknown as ClientServices, statusListJson, kept, database, reads: () => reads };
}

const parse = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as Record<string, unknown>[];

describe('the timelines kept answers', () => {
  it('are the statuses statusesOfPosts writes, and are sent again while nothing changed', async () => {
    const { services, statusListJson, reads } = fakeServices([facts('ada', 'Painting'), facts('bo')]);
    const posts = [post('ada'), post('bo'), post('ada')];
    const first = await statusListJson(services, SITE, posts, 'viewer|/home');
    expect(parse(first)).toEqual(
      JSON.parse(JSON.stringify(await statusesOfPosts(services, null as never, SITE, posts))),
    );
    const again = await statusListJson(services, SITE, [...posts], 'viewer|/home');
    expect(again).toBe(first);
    expect(reads()).toBe(2); // the first answer's and statusesOfPosts' reads, none for the kept one
  });

  it('are written again when a post changed (a new object: a like, a count, a copy)', async () => {
    const { services, statusListJson } = fakeServices([facts('ada')]);
    const liked = post('ada');
    const first = await statusListJson(services, SITE, [liked], 'viewer|/like');
    const after = await statusListJson(
      services,
      SITE,
      [{ ...liked, myReaction: 'like', likesCount: 1 }],
      'viewer|/like',
    );
    expect(after).not.toBe(first);
    expect(parse(after)[0]).toMatchObject({ favourited: true, favourites_count: 1 });
  });

  it("are written again when an author's facts changed or are no longer kept", async () => {
    const { services, statusListJson, kept, database } = fakeServices([facts('ada', 'Before')]);
    const posts = [post('ada')];
    await statusListJson(services, SITE, posts, 'viewer|/facts');
    kept.set('ada', facts('ada', 'After'));
    const changed = parse(await statusListJson(services, SITE, posts, 'viewer|/facts'));
    expect(changed[0].account).toMatchObject({ note: '<p>After</p>' });
    // Forgotten or expired: the cache reads them again (here: another object).
    kept.delete('ada');
    database.set('ada', facts('ada', 'Read again'));
    const reread = parse(await statusListJson(services, SITE, posts, 'viewer|/facts'));
    expect(reread[0].account).toMatchObject({ note: '<p>Read again</p>' });
  });

  it("are written again when an author's language changed, the status's own field (issue 75)", async () => {
    const { services, statusListJson, kept } = fakeServices([facts('ada')]);
    const posts = [post('ada')];
    expect(parse(await statusListJson(services, SITE, posts, 'viewer|/language'))[0].language).toBeNull();
    // The same post object: its kept status bytes must not be sent with the old language.
    kept.set('ada', { ...facts('ada'), language: 'fr' });
    expect(parse(await statusListJson(services, SITE, posts, 'viewer|/language'))[0].language).toBe('fr');
  });

  it("are written again for a mentioned person's new facts", async () => {
    const { services, statusListJson, kept } = fakeServices([facts('ada'), facts('bo')]);
    const posts = [post('ada', { message: 'Hi @bo', mentions: ['bo'] })];
    await statusListJson(services, SITE, posts, 'viewer|/mention');
    const renamed = { ...facts('bo'), _id: 'another-id' };
    kept.set('bo', renamed);
    const after = parse(await statusListJson(services, SITE, posts, 'viewer|/mention'));
    expect((after[0].mentions as { id: string }[])[0].id).toBe('another-id');
  });

  it('are written again for another site', async () => {
    const { services, statusListJson } = fakeServices([facts('ada')]);
    const posts = [post('ada')];
    await statusListJson(services, SITE, posts, 'viewer|/site');
    const other = parse(await statusListJson(services, 'https://other.example', posts, 'viewer|/site'));
    expect(other[0].url).toMatch(/^https:\/\/other\.example\/post\//);
  });

  it('are not kept while someone in them is missing', async () => {
    const { services, statusListJson, database, reads } = fakeServices([facts('ada')]);
    const posts = [post('ada'), post('gone')];
    const first = parse(await statusListJson(services, SITE, posts, 'viewer|/gone'));
    expect(first).toHaveLength(1);
    // Someone by that name again, found by a read, not yet kept by the authors' cache.
    database.set('gone', facts('gone'));
    const back = parse(await statusListJson(services, SITE, posts, 'viewer|/gone'));
    expect(back).toHaveLength(2);
    expect(reads()).toBe(2);
  });
});
