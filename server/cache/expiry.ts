/**
 * When a cache entry read at `now` runs out: at a random moment in the last quarter of `ttlMs`,
 * never later. Entries read together (a server's first busy second) would otherwise run out in
 * the same instant, and their reads again would stall every request waiting then.
 */
export const expiresAt = (now: number, ttlMs: number): number => now + ttlMs - Math.random() * (ttlMs / 4);
