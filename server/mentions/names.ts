/** From a text to the users it mentions, and from the stored names back to a response's `mentions`. */
import { MENTIONS_PER_MESSAGE_MAX } from '../../lib/limits';
import { findMentions } from '../../lib/mentions';
import type { Steps } from '../db/steps';
import { type MentionedUser, type MentionsRepository, usersNamedSteps } from './repository';

/**
 * The existing users that `text` by `authorId` mentions (`@name`, any case), each once: of the
 * first `MENTIONS_PER_MESSAGE_MAX` names it gives, in that order; the others stay plain text (one
 * comment could otherwise notify dozens of people).
 */
export function mentionedUsers(
  mentions: Pick<MentionsRepository, 'run'>,
  text: string,
  authorId: string,
): Promise<MentionedUser[]> {
  return mentions.run(mentionedUsersSteps(text, authorId));
}

/** `mentionedUsers` as steps of a write (`db/steps.ts`). */
export function* mentionedUsersSteps(text: string, authorId: string): Steps<MentionedUser[]> {
  const names = [...new Set(findMentions(text).map((name) => name.toLowerCase()))].slice(0, MENTIONS_PER_MESSAGE_MAX);
  const users = yield* usersNamedSteps(names, authorId);
  // In the text's order: when the author's budget runs out, the first named are the ones told.
  const at = (user: MentionedUser) => names.indexOf(user.username.toLowerCase());
  return users.sort((a, b) => at(a) - at(b));
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
