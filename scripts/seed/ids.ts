/**
 * UUIDv7 ids minted for given past timestamps, strictly increasing. The app pages on ids
 * (keyset), so seeded ids must sort exactly like their created_at: the 48-bit time prefix is the
 * row's own timestamp and the 12-bit `rand_a` field counts up within one millisecond (RFC 9562
 * method 1), so several rows in one millisecond still sort in generation order.
 */
import type { Rng } from './random';

const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');

export interface MintedId {
  id: string;
  /** The timestamp actually encoded (later than asked when a millisecond overflowed). */
  ms: number;
}

export class IdMinter {
  private lastMs = -1;
  private counter = 0;

  constructor(private readonly rng: Rng) {}

  mint(ms: number): MintedId {
    let at = Math.floor(ms);
    if (at <= this.lastMs) {
      at = this.lastMs;
      this.counter++;
      if (this.counter > 0xfff) {
        at++;
        this.counter = 0;
      }
    } else {
      this.counter = 0;
    }
    this.lastMs = at;
    const timeHex = hex(at, 12);
    const variantHi = 0x8000 | (this.rng.u32() & 0x3fff);
    const id =
      `${timeHex.slice(0, 8)}-${timeHex.slice(8)}-7${hex(this.counter, 3)}-${hex(variantHi, 4)}-` +
      `${hex(this.rng.u32() & 0xffff, 4)}${hex(this.rng.u32(), 8)}`;
    return { id, ms: at };
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();
