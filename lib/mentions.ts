/**
 * `@username` mentions in a post's message or a comment, found the same way on the server (who
 * is notified) and on the client (what becomes a profile link).
 */
import { USERNAME_MAX, USERNAME_MIN } from './limits';

/**
 * The characters of a username (USERNAME_PATTERN in ./limits), as a run, and for someone on another
 * server (issue 32) their host after a second `@`: `@name@host[:port]`, a name as this instance keeps it.
 */
const NAME_RUN = /@([A-Za-z0-9_.]+)(?:@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?))?/g;
const NAME_CHAR = /[A-Za-z0-9_.]/;

export type MentionPart = { text: string } | { mention: string };

interface Match {
  /** Where the `@` is. */
  start: number;
  /** Just past the name. */
  end: number;
  name: string;
}

/**
 * Every mention with its place. An `@` right after a name character is part of a word (an email
 * address, `a@b`), not a mention. Trailing dots end the sentence, not the name ("Hi @ann.");
 * a run longer than a username can be is not a mention at all, not its first 30 characters.
 */
function matches(text: string): Match[] {
  const found: Match[] = [];
  for (const match of text.matchAll(NAME_RUN)) {
    const start = match.index;
    if (start > 0 && NAME_CHAR.test(text[start - 1])) continue;
    const local = match[2] ? match[1] : match[1].replace(/\.+$/, '');
    if (local.length < USERNAME_MIN || local.length > USERNAME_MAX) continue;
    const name = match[2] ? `${local}@${match[2]}` : local;
    found.push({ start, end: start + 1 + name.length, name });
  }
  return found;
}

/** The names mentioned in `text`, without the `@`, as typed, each once (ignoring case), in order. */
export function findMentions(text: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const { name } of matches(text)) {
    const key = name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    names.push(name);
  }
  return names;
}

/**
 * `text` cut into plain runs and mentions (`{ mention: 'ann' }` stands for `@ann`, as typed);
 * joining them back with the `@` gives `text` again. Whether a mention names someone who exists is
 * the caller's question (the server lists them in a post's or comment's `mentions`).
 */
export function splitMentions(text: string): MentionPart[] {
  const parts: MentionPart[] = [];
  let last = 0;
  for (const { start, end, name } of matches(text)) {
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ mention: name });
    last = end;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
