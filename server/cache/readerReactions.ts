/**
 * One reader's reactions (row id → like or dislike), as the shared rows keep them apart from the
 * rows: a UUID's four 32-bit words and the reaction in one typed array, 20 bytes a reaction where a
 * Map of id strings took ~115, so 2,000 readers' reactions are 8 MB, not 47 (docs/benchmarks.md,
 * "Follow lists as numbers, reactions as words"). Entries are sorted by the id's last word (random in
 * a UUIDv7), so a look-up parses 8 hex digits and searches; ids of any other shape go in a Map.
 */
import type { Reaction } from '../../lib/types';

/** Words an entry takes: the id's last word, its first three, then the reaction. */
const STRIDE = 5;
const KINDS: Reaction[] = ['like', 'dislike'];

/**
 * The number the lower-case hex digits `s[from..from+count)` spell, or -1 when one is not such a
 * digit (an id in capitals is another id, as it was to the Map).
 */
function hexAt(s: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i += 1) {
    const c = s.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** The id's last word when it has the shape of a UUID (its dashes; its digits by `hexAt`), else -1. */
function lastWord(id: string): number {
  if (id.length !== 36 || id[8] !== '-' || id[13] !== '-' || id[18] !== '-' || id[23] !== '-') return -1;
  return hexAt(id, 28, 8);
}

/** The id's first three words, or null when a digit is not hex. */
function firstWords(id: string): [number, number, number] | null {
  const a = hexAt(id, 0, 8);
  const b = hexAt(id, 9, 4) * 0x10000 + hexAt(id, 14, 4);
  const c = hexAt(id, 19, 4) * 0x10000 + hexAt(id, 24, 4);
  return a < 0 || b < 0 || c < 0 ? null : [a, b, c];
}

export class ReaderReactions {
  private entries = new Uint32Array(0);
  private others: Map<string, Reaction> | undefined;

  /** From pairs of distinct ids (as read from the database), sorted once. */
  static of(pairs: Iterable<readonly [string, Reaction]>): ReaderReactions {
    const reactions = new ReaderReactions();
    const parsed: number[][] = [];
    for (const [id, reaction] of pairs) {
      const last = lastWord(id);
      const words = last < 0 ? null : firstWords(id);
      if (words) parsed.push([last, ...words, KINDS.indexOf(reaction)]);
      else (reactions.others ??= new Map()).set(id, reaction);
    }
    parsed.sort((a, b) => a[0] - b[0]);
    reactions.entries = Uint32Array.from(parsed.flat());
    return reactions;
  }

  get size(): number {
    return this.entries.length / STRIDE + (this.others?.size ?? 0);
  }

  get(id: string): Reaction | undefined {
    const at = this.find(id);
    // Not found among the words: it may be an id of another shape (`others` is rarely there).
    return at < 0 ? this.others?.get(id) : KINDS[this.entries[at + 4]];
  }

  set(id: string, reaction: Reaction): void {
    const last = lastWord(id);
    const words = last < 0 ? null : firstWords(id);
    if (!words) {
      (this.others ??= new Map()).set(id, reaction);
      return;
    }
    const kind = KINDS.indexOf(reaction);
    const found = this.find(id);
    if (found >= 0) {
      this.entries[found + 4] = kind;
      return;
    }
    const at = this.lowerBound(last);
    const grown = new Uint32Array(this.entries.length + STRIDE);
    grown.set(this.entries.subarray(0, at));
    grown.set([last, ...words, kind], at);
    grown.set(this.entries.subarray(at), at + STRIDE);
    this.entries = grown;
  }

  delete(id: string): void {
    const at = this.find(id);
    if (at < 0) {
      this.others?.delete(id);
      return;
    }
    const shrunk = new Uint32Array(this.entries.length - STRIDE);
    shrunk.set(this.entries.subarray(0, at));
    shrunk.set(this.entries.subarray(at + STRIDE), at);
    this.entries = shrunk;
  }

  /** The first entry's offset whose last word is not below `last`. */
  private lowerBound(last: number): number {
    let low = 0;
    let high = this.entries.length / STRIDE;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.entries[mid * STRIDE] < last) low = mid + 1;
      else high = mid;
    }
    return low * STRIDE;
  }

  /** The offset of the id's entry, or -1; its first words are parsed only when a last word matches. */
  private find(id: string): number {
    const last = lastWord(id);
    if (last < 0) return -1;
    let words: [number, number, number] | null | undefined;
    for (let at = this.lowerBound(last); at < this.entries.length && this.entries[at] === last; at += STRIDE) {
      words ??= firstWords(id);
      if (!words) return -1;
      const e = this.entries;
      if (e[at + 1] === words[0] && e[at + 2] === words[1] && e[at + 3] === words[2]) return at;
    }
    return -1;
  }
}
