/**
 * An Instagram caption as a post's message and tags (issue 76). The post rules stand (`lib/limits`):
 * a message of 1 to `MESSAGE_MAX` characters and 1 to `TAGS_PER_POST_MAX` tags. So a longer caption
 * is cut at a character boundary with an ellipsis, hashtags become tags (the first ones that are
 * valid tags, up to the maximum, taken from the whole caption before any cut), a caption with no
 * hashtag gets the tag `instagram`, and an empty one the message "From Instagram".
 */
import { MESSAGE_MAX, TAGS_PER_POST_MAX } from '../../lib/limits';
import { hashtagTags } from '../../lib/textEntities';
import { tagError } from '../../lib/validation';

export const FALLBACK_TAG = 'instagram';
export const EMPTY_CAPTION = 'From Instagram';

/**
 * Instagram's JSON writes UTF-8 bytes as if each were a Latin-1 character (`\u00c3\u00a9` for é).
 * A string whose characters are all bytes, and whose bytes are valid UTF-8, is read back as UTF-8;
 * anything else (a file written right) is kept as it is.
 */
export function fixMojibake(text: string): string {
  // eslint-disable-next-line no-control-regex -- every character must be a byte
  if (!/^[\u0000-\u00ff]*$/.test(text) || !/[\u0080-\u00ff]/.test(text)) return text;
  const bytes = Buffer.from(text, 'latin1');
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return decoded.includes('\ufffd') ? text : decoded;
}

/** The caption cut to `max` characters (code points, never half a pair), an ellipsis when cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  let out = '';
  for (const char of chars) {
    if (out.length + char.length > max - 1) break;
    out += char;
  }
  return `${out.trimEnd()}…`;
}

export function postTextOf(caption: string): { message: string; tags: string[] } {
  const text = caption.trim();
  const tags = hashtagTags(text)
    .filter((tag) => tagError(tag) === null)
    .slice(0, TAGS_PER_POST_MAX);
  return {
    message: text.length === 0 ? EMPTY_CAPTION : cut(text, MESSAGE_MAX),
    tags: tags.length > 0 ? tags : [FALLBACK_TAG],
  };
}
