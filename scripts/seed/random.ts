/**
 * Deterministic randomness for the seed: the same flags give the same dataset on every run,
 * so benchmark figures from different machines describe the same data.
 */

/** sfc32: tiny, fast and good enough for synthetic data; seeded from one integer. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** 32 random bits as an unsigned integer. */
  u32(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }

  /** In-place Fisher–Yates shuffle. */
  shuffle<T extends { length: number; [i: number]: unknown }>(items: T): T {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = items[i];
      items[i] = items[j];
      items[j] = tmp;
    }
    return items;
  }
}

/**
 * Zipf-like sampler over ranks 0..n-1 (rank 0 most likely): weight 1/(rank+1)^s. Social data is
 * skewed this way: a few tags, creators and posts get most of the activity.
 */
export class Zipf {
  private readonly cdf: Float64Array;

  constructor(n: number, s: number) {
    this.cdf = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      total += 1 / Math.pow(i + 1, s);
      this.cdf[i] = total;
    }
    for (let i = 0; i < n; i++) this.cdf[i] /= total;
  }

  sample(rng: Rng): number {
    const u = rng.next();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * Evenly spread, strictly increasing millisecond timestamps with jitter: `count` of them in
 * [from, to). Generating them already sorted means ids can be minted in time order without a
 * sort of millions of rows.
 */
export function spreadTimes(rng: Rng, count: number, from: number, to: number): Float64Array {
  const times = new Float64Array(count);
  const step = (to - from) / Math.max(1, count);
  let last = -Infinity;
  for (let i = 0; i < count; i++) {
    const t = Math.max(last, Math.floor(from + (i + rng.next()) * step));
    times[i] = t;
    last = t;
  }
  return times;
}
