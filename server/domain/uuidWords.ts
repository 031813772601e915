/**
 * The one UUID ↔ words codec: an id as four 32-bit words (the feed index's sorted ids, a reader's
 * reactions), so comparing the words in order compares the ids and an id costs 16 bytes, not a
 * string. Only the lower-case form `newId()` writes parses: an id in capitals is another id.
 */

/** Words a UUID takes. */
export const UUID_WORDS = 4;

/** The number the lower-case hex digits `s[from..from+count)` spell, or -1 when one is not such a digit. */
export function hexAt(s: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i += 1) {
    const c = s.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Whether `s[offset..offset+36)` has a UUID's length and dashes (its digits are `hexAt`'s to check). */
export function hasUuidShape(s: string, offset = 0): boolean {
  return (
    s.length >= offset + 36 &&
    s[offset + 8] === '-' &&
    s[offset + 13] === '-' &&
    s[offset + 18] === '-' &&
    s[offset + 23] === '-'
  );
}

/**
 * Parses the UUID at `offset` of `source` into four words of `into` from `at`; false (and `into`
 * left partly written) when it is not a lower-case UUID.
 */
export function uuidWordsAt(source: string, offset: number, into: Uint32Array, at: number): boolean {
  if (!hasUuidShape(source, offset)) return false;
  const a = hexAt(source, offset, 8);
  const b = hexAt(source, offset + 9, 4) * 0x10000 + hexAt(source, offset + 14, 4);
  const c = hexAt(source, offset + 19, 4) * 0x10000 + hexAt(source, offset + 24, 4);
  const d = hexAt(source, offset + 28, 8);
  if (a < 0 || b < 0 || c < 0 || d < 0) return false;
  into[at] = a;
  into[at + 1] = b;
  into[at + 2] = c;
  into[at + 3] = d;
  return true;
}

/** Two hex digits of every byte: formatting an id is then 16 lookups and one concatenation. */
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

const hex8 = (word: number) =>
  HEX_BYTES[word >>> 24] + HEX_BYTES[(word >>> 16) & 0xff] + HEX_BYTES[(word >>> 8) & 0xff] + HEX_BYTES[word & 0xff];
const hex4 = (word: number) => HEX_BYTES[(word >>> 8) & 0xff] + HEX_BYTES[word & 0xff];

/** The UUID four words of `from` at `at` spell: `uuidWordsAt`'s inverse. */
export function uuidOfWords(from: Uint32Array, at: number): string {
  const b = from[at + 1];
  const c = from[at + 2];
  return `${hex8(from[at])}-${hex4(b >>> 16)}-${hex4(b)}-${hex4(c >>> 16)}-${hex4(c)}${hex8(from[at + 3])}`;
}
