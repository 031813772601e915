/**
 * One reader's reactions (row id → like or dislike), as the shared rows keep them apart from the
 * rows: a UUID's four 32-bit words and the reaction in one typed array, 20 bytes a reaction where a
 * Map of id strings took ~115, so 2,000 readers' reactions are 8 MB, not 47 (docs/benchmarks.md,
 * "Follow lists as numbers, reactions as words"). Entries are sorted by the id's last word (random in
 * a UUIDv7), so a look-up parses 8 hex digits and searches; ids of any other shape go in a Map.
 */
import type { Reaction } from '../../lib/types';
import { UUID_WORDS, hasUuidShape, hexAt, uuidWordsAt } from '../domain/uuidWords';

/** Words an entry takes: the id's last word, its first three, then the reaction. */
const STRIDE = 5;
const KINDS: Reaction[] = ['like', 'dislike'];

/** The id's last word when it has the shape of a UUID, else -1: the sort key, parsed alone first. */
const lastWord = (id: string) => (id.length === 36 && hasUuidShape(id) ? hexAt(id, 28, 8) : -1);

/** Scratch words of the id being looked up or set (one at a time: the reactions are synchronous). */
const parsed = new Uint32Array(UUID_WORDS);

export class ReaderReactions {
  private entries = new Uint32Array(0);
  private others: Map<string, Reaction> | undefined;

  /** From pairs of distinct ids (as read from the database), sorted once. */
  static of(pairs: Iterable<readonly [string, Reaction]>): ReaderReactions {
    const reactions = new ReaderReactions();
    const rows: number[][] = [];
    for (const [id, reaction] of pairs) {
      if (id.length === 36 && uuidWordsAt(id, 0, parsed, 0))
        rows.push([parsed[3], parsed[0], parsed[1], parsed[2], KINDS.indexOf(reaction)]);
      else (reactions.others ??= new Map()).set(id, reaction);
    }
    rows.sort((a, b) => a[0] - b[0]);
    reactions.entries = Uint32Array.from(rows.flat());
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
    if (id.length !== 36 || !uuidWordsAt(id, 0, parsed, 0)) {
      (this.others ??= new Map()).set(id, reaction);
      return;
    }
    const kind = KINDS.indexOf(reaction);
    const found = this.findParsed(parsed[3]);
    if (found >= 0) {
      this.entries[found + 4] = kind;
      return;
    }
    const at = this.lowerBound(parsed[3]);
    const grown = new Uint32Array(this.entries.length + STRIDE);
    grown.set(this.entries.subarray(0, at));
    grown.set([parsed[3], parsed[0], parsed[1], parsed[2], kind], at);
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
    const at = this.lowerBound(last);
    if (at >= this.entries.length || this.entries[at] !== last) return -1;
    return uuidWordsAt(id, 0, parsed, 0) ? this.findParsed(last, at) : -1;
  }

  /** The offset of the entry of the id in `parsed` (whose last word is `last`), from `at` on, or -1. */
  private findParsed(last: number, at = this.lowerBound(last)): number {
    const e = this.entries;
    for (; at < e.length && e[at] === last; at += STRIDE)
      if (e[at + 1] === parsed[0] && e[at + 2] === parsed[1] && e[at + 3] === parsed[2]) return at;
    return -1;
  }
}
