/**
 * The client API's part of the read model (`posts/postViews.ts`): a shared Post's status as JSON
 * bytes on either side of its account, an author's Account as bytes, each made once per Post or
 * per author's facts object and held by its identity (`cache/renderings.ts`), and a viewer's last
 * answer at each timeline address. An answer is then a copy of bytes (Node would otherwise encode
 * every 20 KB answer to UTF-8 again).
 */
import type { Language } from '../../lib/i18n/languages';
import type { Post } from '../../lib/types';
import { usernameKey } from '../../lib/validation';
import type { CacheRegistry } from '../cache/registry';
import { keptBytes } from '../http/asciiJson';
import type { AuthorFacts } from '../users/mappers';
import type { UsersService } from '../users/service';
import { type MentionEntity, type Site, mentionOf, mentionsStillHere, postStatus, toAccount } from './mappers';

const ACCOUNT_SLOT = '"account":null';

/** A status's bytes before and after its account, for one site and the people it mentions then. */
interface StatusParts {
  site: Site;
  /** Its author's language then (`users.language`): a change makes their facts a new object, not the post. */
  language: Language | null;
  /** Whom it mentions, as written (a mentioned person's rename changes it, not the post). */
  mentions: string;
  parts: [Buffer, Buffer];
}

interface AccountBytes {
  site: Site;
  bytes: Buffer;
  mention: MentionEntity;
}

/**
 * A viewer's last answer at a timeline address, sent again while it would be written the same:
 * the same site, the same Post objects (a post's content, counts and the viewer's reaction are its
 * object's: any change is a new one) and the same facts objects of every author and person
 * mentioned, still kept by the authors' cache. Saves the copy of ~23 KB per answer.
 */
interface KeptPage {
  site: Site;
  posts: Post[];
  keys: string[];
  facts: AuthorFacts[];
  bytes: Buffer;
}

/** Idle answers go after this: each is checked against what it was written from before it is sent. */
const KEPT_PAGE_MS = 10 * 60_000;

const OPEN = Buffer.from('['),
  COMMA = Buffer.from(','),
  CLOSE = Buffer.from(']');

export function statusViews(caches: CacheRegistry, users: Pick<UsersService, 'authorsByKey' | 'authorKept'>) {
  const statuses = caches.renderings<Post, StatusParts>({ name: 'status_json' });
  const accounts = caches.renderings<AuthorFacts, AccountBytes>({ name: 'account_json' });
  const pages = caches.keyed<string, KeptPage>({ name: 'timeline_answers', ttlMs: KEPT_PAGE_MS, max: 256 });

  function accountOf(site: Site, facts: AuthorFacts): AccountBytes {
    const held = accounts.get(facts);
    if (held?.site === site) return held;
    const account = toAccount(site, facts);
    return accounts.keep(facts, { site, bytes: keptBytes(JSON.stringify(account)), mention: mentionOf(account) });
  }

  function statusParts(site: Site, post: Post, language: Language | null, mentions: MentionEntity[]): [Buffer, Buffer] {
    const written = mentions.length > 0 ? JSON.stringify(mentions) : '';
    const held = statuses.get(post);
    if (held?.site === site && held.language === language && held.mentions === written) return held.parts;
    const json = JSON.stringify(postStatus(site, post, null, language, mentions));
    // Quotes inside strings are escaped in JSON, so the slot is found only where the field is.
    const at = json.indexOf(ACCOUNT_SLOT);
    const parts: [Buffer, Buffer] = [
      keptBytes(json.slice(0, at + '"account":'.length)),
      keptBytes(json.slice(at + ACCOUNT_SLOT.length)),
    ];
    statuses.keep(post, { site, language, mentions: written, parts });
    return parts;
  }

  function stillWritten(page: KeptPage, site: Site, posts: Post[]): boolean {
    if (page.site !== site || page.posts.length !== posts.length) return false;
    for (let i = 0; i < posts.length; i++) if (page.posts[i] !== posts[i]) return false;
    for (let i = 0; i < page.keys.length; i++) if (users.authorKept(page.keys[i]) !== page.facts[i]) return false;
    return true;
  }

  return {
    /**
     * A timeline's answer as JSON bytes: the same statuses as `statusesOfPosts` (statuses.ts).
     * `pageKey` names the viewer's address, whose last answer is kept.
     */
    async listJson(site: Site, posts: Post[], pageKey?: string): Promise<Buffer> {
      const last = pageKey === undefined ? undefined : pages.peek(pageKey);
      pages.count(last !== undefined);
      if (last && stillWritten(last, site, posts)) return last.bytes;
      const authorKeys = posts.map((post) => usernameKey(post.creator));
      const keys = [...authorKeys];
      for (const post of posts) if (post.mentions) for (const name of post.mentions) keys.push(usernameKey(name));
      const authors = await users.authorsByKey(keys);
      const parts: Buffer[] = [OPEN];
      let length = 2;
      for (let i = 0; i < posts.length; i++) {
        const facts = authors.get(authorKeys[i]);
        // An author gone since the list was read: their post is left out, as `statusesOfPosts` does.
        if (!facts) continue;
        if (parts.length > 1) parts.push(COMMA);
        const mentions = mentionsStillHere(posts[i].mentions, (key) => {
          const named = authors.get(key);
          return named && accountOf(site, named).mention;
        });
        const [before, after] = statusParts(site, posts[i], facts.language, mentions);
        const account = accountOf(site, facts).bytes;
        parts.push(before, account, after);
        length += (parts.length > 4 ? 1 : 0) + before.length + account.length + after.length;
      }
      parts.push(CLOSE);
      // A buffer of its own, not a slice of Node's shared pool: a kept page must not hold a whole pool.
      const bytes = Buffer.allocUnsafeSlow(length);
      let at = 0;
      for (const part of parts) at += part.copy(bytes, at);
      // Kept only when every person was found: one gone now might not be gone at the next request.
      const facts = keys.map((key) => authors.get(key));
      if (pageKey !== undefined && facts.every((f) => f !== undefined))
        pages.put(pageKey, { site, posts, keys, facts: facts as AuthorFacts[], bytes });
      return bytes;
    },
  };
}

export type StatusViews = ReturnType<typeof statusViews>;
