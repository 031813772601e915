/**
 * `@mentions` and `#hashtags` as the fediverse writes them (issues 67 and 68): the one scanner the
 * web's rendering, the server's writes, the client API's `content` and federation's HTML share.
 *
 * - `@name` (or `@name@` this site's host) is someone here: the local username rule (USERNAME_PATTERN,
 *   3 to 30 characters). Trailing dots end the sentence, not the name, and the name stops at any
 *   other character ("@dan-the-man" names dan).
 * - `@name@host` is someone elsewhere, named by their server's rules: ASCII letters, digits and `_`,
 *   with `.` and `-` between them, from 1 character (Mastodon's, Pleroma's and Misskey's names). The
 *   host may carry a port and may be internationalised: its key is the ASCII (punycode) form, which
 *   is how a kept person's name is stored; the text shows what the writer typed.
 * - `#tag`: letters, marks, digits and `_`, with a middle dot (·, ・) or a zero-width non-joiner
 *   inside; at least one letter (`#123` is not a tag).
 * - Neither counts inside a web address or after a word character (`ann@example.com`, `page#top`);
 *   nor after `=` or `/`; a mention not after `@` (`@@ann`), a hashtag not after `)` or `&` (an HTML
 *   entity such as `&#39;` is never a tag).
 */
import { REMOTE_USERNAME_MAX, USERNAME_MAX, USERNAME_MIN } from './limits';
import { normalizeTags } from './tags';
import { tagError } from './validation';

export type TextPart =
  | { text: string }
  /** `mention`: the name as typed, without the `@`; `key`: what names are compared by (`mentionKey`). */
  | { mention: string; key: string }
  /** The tag as typed, without the `#`. */
  | { hashtag: string };

export interface ScanOptions {
  /** This site's host (`posts.example`, `127.0.0.1:3000`): `@name@` it is the local `name`. */
  ownHost?: string;
}

interface Found {
  start: number;
  end: number;
  part: Exclude<TextPart, { text: string }>;
}

/** A character of a word, as Mastodon's `[[:word:]]`: letters, marks, digits, `_`. */
const WORD = /[\p{L}\p{M}\p{N}_]/u;
const LABEL = String.raw`[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?`;
/** `@`, a run of name characters, then maybe `@host[:port]` (the host's labels never end in `.` or `-`). */
const MENTION_AT = new RegExp(String.raw`@([A-Za-z0-9_.-]+)(?:@(${LABEL}(?:\.${LABEL})*)(?::(\d{1,5}))?)?`, 'uy');
const LOCAL_RUN = /^[A-Za-z0-9_.]+/;
const LOCAL_NAME = /^[A-Za-z0-9_.]+$/;
const REMOTE_NAME = /^[A-Za-z0-9_]+(?:[.-]+[A-Za-z0-9_]+)*$/;

/** A name someone elsewhere may have here (a mention finds it, a route takes it): the rule above. */
export const isRemotePersonName = (name: string): boolean => REMOTE_NAME.test(name);
const HASHTAG_AT = /#([\p{L}\p{M}\p{N}_]+(?:[\u00b7\u30fb\u200c]+[\p{L}\p{M}\p{N}_]+)*)/uy;
const LETTER = /\p{L}/u;
/** Web addresses: what they hold is neither a mention nor a hashtag. */
const URL_RUN = /https?:\/\/[^\s<>"]+/giu;
// eslint-disable-next-line no-control-regex -- every ASCII character
const ASCII = /^[\x00-\x7f]*$/;

/**
 * A host's one compared form: lower case, an internationalised name in ASCII (punycode, as WHATWG
 * URLs write it: `bücher.example` is `xn--bcher-kva.example`), the port kept. Null when no URL could
 * have it as its host.
 */
export function hostKey(host: string, port?: string): string | null {
  let name = host.toLowerCase();
  if (!ASCII.test(name)) {
    try {
      name = new URL(`http://${host}`).hostname;
    } catch {
      return null;
    }
  }
  return port ? `${name}:${port}` : name;
}

/** What a mention's name is compared by: `name` here, `name@host` elsewhere, lower case, the host in ASCII. */
export function mentionKey(name: string): string {
  const at = name.indexOf('@');
  if (at < 0) return name.toLowerCase();
  const [host, port] = name.slice(at + 1).split(':');
  return `${name.slice(0, at).toLowerCase()}@${hostKey(host, port) ?? host.toLowerCase()}`;
}

const wordAt = (text: string, i: number) => i >= 0 && i < text.length && WORD.test(text[i]);

function urlRanges(text: string): [number, number][] {
  if (!text.includes('://')) return [];
  return [...text.matchAll(URL_RUN)].map((m) => [m.index, m.index + m[0].length]);
}

/**
 * The mention starting at `at` (an `@`), or where to look on: past the whole `@name@host` that is
 * no mention (its host's `@` starts none either).
 */
function mentionAt(text: string, at: number, own: string | null): Found | number {
  const before = text[at - 1];
  if (wordAt(text, at - 1) || before === '=' || before === '/' || before === '@') return at + 1;
  MENTION_AT.lastIndex = at;
  const match = MENTION_AT.exec(text);
  if (!match) return at + 1;
  const [whole, run, host, port] = match;
  const end = at + whole.length;
  if (host !== undefined) {
    // Followed by more of a word, or by another `@`: not this mention.
    if (wordAt(text, end) || text[end] === '@') return end;
    const key = hostKey(host, port);
    if (key === null) return end;
    const typed = whole.slice(1);
    if (key === own) {
      if (!LOCAL_NAME.test(run) || run.length < USERNAME_MIN || run.length > USERNAME_MAX) return end;
      return { start: at, end, part: { mention: typed, key: run.toLowerCase() } };
    }
    if (!REMOTE_NAME.test(run) || typed.length > REMOTE_USERNAME_MAX) return end;
    return { start: at, end, part: { mention: typed, key: `${run.toLowerCase()}@${key}` } };
  }
  // `@name@` with no host after it is no mention (as the fediverse's extractors have it).
  if (text[end] === '@') return end + 1;
  const name = (LOCAL_RUN.exec(run)?.[0] ?? '').replace(/\.+$/, '');
  const nameEnd = at + 1 + name.length;
  // `@josé` is not `@jos`.
  if (wordAt(text, nameEnd) || name.length < USERNAME_MIN || name.length > USERNAME_MAX) return end;
  return { start: at, end: nameEnd, part: { mention: name, key: name.toLowerCase() } };
}

/** The hashtag starting at `at` (a `#`), or null. */
function hashtagAt(text: string, at: number): Found | null {
  const before = text[at - 1];
  if (wordAt(text, at - 1) || before === '=' || before === '/' || before === ')' || before === '&') return null;
  HASHTAG_AT.lastIndex = at;
  const match = HASHTAG_AT.exec(text);
  if (!match || !LETTER.test(match[1])) return null;
  return { start: at, end: at + match[0].length, part: { hashtag: match[1] } };
}

/** Every mention and hashtag of `text`, in order, none overlapping, none inside a web address. */
function scan(text: string, options: ScanOptions): Found[] {
  const found: Found[] = [];
  if (!text.includes('@') && !text.includes('#')) return found;
  const urls = urlRanges(text);
  const own = options.ownHost ? (hostKey(options.ownHost) ?? null) : null;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c !== '@' && c !== '#') {
      i += 1;
      continue;
    }
    const inUrl = urls.find(([start, end]) => i >= start && i < end);
    if (inUrl) {
      i = inUrl[1];
      continue;
    }
    const hit = c === '@' ? mentionAt(text, i, own) : (hashtagAt(text, i) ?? i + 1);
    if (typeof hit === 'number') i = hit;
    else {
      found.push(hit);
      i = hit.end;
    }
  }
  return found;
}

/**
 * `text` cut into plain runs, mentions and hashtags; joining them back (`@` before a mention, `#`
 * before a hashtag) gives `text` again. Whether a mention names someone who exists, or a hashtag is
 * one of a post's tags, is the caller's question.
 */
export function splitText(text: string, options: ScanOptions = {}): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const { start, end, part } of scan(text, options)) {
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push(part);
    last = end;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** The mentions of `text`, each once by key, in order: the name as typed and its key. */
export function mentionsOf(text: string, options: ScanOptions = {}): { name: string; key: string }[] {
  const seen = new Set<string>();
  const out: { name: string; key: string }[] = [];
  for (const { part } of scan(text, options)) {
    if (!('mention' in part) || seen.has(part.key)) continue;
    seen.add(part.key);
    out.push({ name: part.mention, key: part.key });
  }
  return out;
}

/** The names mentioned in `text`, without the `@`, as typed, each once (by key), in order. */
export const findMentions = (text: string, options: ScanOptions = {}): string[] =>
  mentionsOf(text, options).map((m) => m.name);

/** The hashtags of `text` as typed, without the `#`, in order (repeats included). */
export const findHashtags = (text: string): string[] =>
  scan(text, {}).flatMap(({ part }) => ('hashtag' in part ? [part.hashtag] : []));

/** Whether a hashtag can be a tag here (lib/validation's tag rule); one that cannot stays text. */
export const isTagHashtag = (hashtag: string): boolean => tagError(normalizeTags([hashtag])[0] ?? '') === null;

/** The hashtags of `text` that can be tags, normalised as tags are (each once, first spelling wins). */
export const hashtagTags = (text: string): string[] => normalizeTags(findHashtags(text).filter(isTagHashtag));
