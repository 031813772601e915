/** From a text to the users it mentions, and from the stored names back to a response's `mentions`. */
import { findMentions } from '../../lib/mentions';
import type { MentionedUser, MentionsRepository } from './repository';

/** The existing users that `text` by `authorId` mentions (`@name`, any case), each once. */
export function mentionedUsers(
  mentions: Pick<MentionsRepository, 'usersNamed'>,
  text: string,
  authorId: string,
): Promise<MentionedUser[]> {
  return mentions.usersNamed([...new Set(findMentions(text).map((name) => name.toLowerCase()))], authorId);
}

/** The comma-joined names a list read, in the order the text first mentions them. */
export function mentionList(joined: string | null, text: string): string[] {
  if (!joined) return [];
  const names = joined.split(',');
  if (names.length < 2) return names;
  const order = findMentions(text).map((name) => name.toLowerCase());
  // A user renamed since keeps their link but is no longer in the text: last.
  const rank = (name: string) => {
    const at = order.indexOf(name.toLowerCase());
    return at < 0 ? order.length : at;
  };
  return names.sort((a, b) => rank(a) - rank(b));
}
