/** From a text to the users it mentions, and from the stored names back to a response's `mentions`. */
import { MENTIONS_PER_MESSAGE_MAX } from '../../lib/limits';
import { mentionKey, mentionsOf } from '../../lib/textEntities';
import type { Steps } from '../db/steps';
import { type MentionedUser, type MentionsRepository, usersNamedSteps, usersWithIdsSteps } from './repository';

/** How this instance reads the names in a text. */
export interface MentionRules {
  /** This site's host (`PUBLIC_URL`'s): `@name@` it is the local `name`. */
  ownHost?: string;
  /**
   * Looks someone elsewhere up by `@name@host` (WebFinger, then their actor) and keeps them; absent
   * when federation is off, and then only people already kept can be mentioned.
   */
  lookUpRemote?: ((handle: string) => Promise<{ id: string } | null>) | null;
}

/** The names a text mentions, ready for the write: their keys, and those looked up elsewhere by id. */
export interface NamedInText {
  /** `mentionKey`s, each once, in the text's order: at most `MENTIONS_PER_MESSAGE_MAX`. */
  keys: string[];
  /** Keys looked up elsewhere now whose person is kept under another name (their actor's host). */
  resolved: ReadonlyMap<string, string>;
}

/** The first `MENTIONS_PER_MESSAGE_MAX` keys `text` names; the others stay plain text (one comment could otherwise notify dozens). */
const mentionedKeys = (text: string, rules: MentionRules = {}): string[] =>
  mentionsOf(text, { ownHost: rules.ownHost })
    .map((m) => m.key)
    .slice(0, MENTIONS_PER_MESSAGE_MAX);

/**
 * The names of `text`, with the people elsewhere it names who are not kept yet looked up now
 * (before the write's transaction: a look-up is a few requests to their server). One that cannot be
 * found stays text.
 */
export async function namedInText(
  mentions: Pick<MentionsRepository, 'keptNames'>,
  text: string,
  rules: MentionRules = {},
): Promise<NamedInText> {
  const keys = mentionedKeys(text, rules);
  const resolved = new Map<string, string>();
  const remote = keys.filter((key) => key.includes('@'));
  const { lookUpRemote } = rules;
  if (remote.length === 0 || !lookUpRemote) return { keys, resolved };
  const kept = new Set(await mentions.keptNames(remote));
  await Promise.all(
    remote
      .filter((key) => !kept.has(key))
      .map(async (key) => {
        const found = await lookUpRemote(`@${key}`).catch(() => null);
        if (found) resolved.set(key, found.id);
      }),
  );
  return { keys, resolved };
}

/**
 * The existing users the names give (any case), each once, in the text's order, but for those with
 * a block between them and `authorId` (to the author they do not exist): as steps of a write.
 */
export function* mentionedUsersSteps(named: NamedInText, authorId: string): Steps<MentionedUser[]> {
  const { keys, resolved } = named;
  const byName = yield* usersNamedSteps(keys, authorId);
  const found = new Set(byName.map((user) => user.username.toLowerCase()));
  const ids = keys.filter((key) => !found.has(key) && resolved.has(key)).map((key) => resolved.get(key)!);
  const byId = ids.length > 0 ? yield* usersWithIdsSteps(ids, authorId) : [];
  const users = [...byName, ...byId.filter((user) => !byName.some((u) => u.id === user.id))];
  // In the text's order: when the author's budget runs out, the first named are the ones told.
  const keyOf = new Map([...resolved].map(([key, id]) => [id, key]));
  const at = (user: MentionedUser) => {
    const i = keys.indexOf(keyOf.get(user.id) ?? user.username.toLowerCase());
    return i < 0 ? keys.indexOf(user.username.toLowerCase()) : i;
  };
  return users.sort((a, b) => at(a) - at(b));
}

/**
 * The comma-joined names a list read, in the order the text first mentions them (`@name@` this
 * site counts where its local name is, when no mention matches it whole).
 */
export function mentionList(joined: string | null, text: string): string[] {
  if (!joined) return [];
  const names = joined.split(',');
  if (names.length < 2) return names;
  const order = mentionsOf(text).map((m) => m.key);
  const local = order.map((key) => key.split('@')[0]);
  // A user renamed since keeps their link but is no longer in the text: last.
  const rank = (name: string) => {
    const key = mentionKey(name);
    const at = order.indexOf(key);
    const atLocal = key.includes('@') ? -1 : local.indexOf(key);
    return at >= 0 ? at : atLocal >= 0 ? atLocal : order.length;
  };
  return names.sort((a, b) => rank(a) - rank(b));
}
