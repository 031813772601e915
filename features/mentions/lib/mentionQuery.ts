/**
 * The `@name` being typed at the caret, and the text with a suggestion put in its place. The same
 * boundaries as lib/textEntities' scanner: no mention after a word character, `=`, `/` or `@`.
 */

/** What `/api/people/suggest` takes after the `@`: a username's start, maybe `@` and a host's start. */
const QUERY = /^[A-Za-z0-9_.-]+(?:@[A-Za-z0-9.:-]*)?$/;
/** The server's bound on `q` (server/users/service.ts SUGGEST_QUERY_MAX). */
export const MENTION_QUERY_MAX = 100;
const NAME_CHAR = /[A-Za-z0-9_.:@-]/;
const BEFORE_WORD = /[\p{L}\p{M}\p{N}_=/@]/u;

export interface MentionQuery {
  /** Index of the `@` that starts it. */
  start: number;
  /** Index just past the name (the caret, or further when the caret is inside the name). */
  end: number;
  /** What was typed after the `@`: at least one character. */
  query: string;
}

/** The mention being typed at `caret` in `text`, or null when the caret is not in one. */
export function mentionQueryAt(text: string, caret: number): MentionQuery | null {
  let begin = caret;
  while (begin > 0 && NAME_CHAR.test(text[begin - 1])) begin -= 1;
  let end = caret;
  while (end < text.length && NAME_CHAR.test(text[end])) end += 1;
  // The run holds the mention's own `@` first; any other `@` before the caret is its host's.
  const at = text.indexOf('@', begin);
  if (at < 0 || at >= caret) return null;
  if (text.slice(begin, at).length > 0 || (at > 0 && BEFORE_WORD.test(text[at - 1]))) return null;
  const query = text.slice(at + 1, caret);
  if (query.length === 0 || query.length > MENTION_QUERY_MAX || !QUERY.test(query)) return null;
  return { start: at, end, query };
}

/** `text` with the mention at `at` replaced by `@username ` (no second space before one), and the caret after it. */
export function insertMention(text: string, at: MentionQuery, username: string): { text: string; caret: number } {
  const after = text.slice(at.end);
  const inserted = `@${username}${/^\s/.test(after) ? '' : ' '}`;
  const caret = at.start + inserted.length + (/^\s/.test(after) ? 1 : 0);
  return { text: text.slice(0, at.start) + inserted + after, caret };
}
