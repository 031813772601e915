import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

// uuid asks WebCrypto for 16 bytes per id, many times dearer than drawing them from a pool filled
// 4 KB at a time (docs/benchmarks/log/2026-11-27.md, "A pragma, headers and random bytes fewer per request").
const pool = new Uint8Array(16 * 256);
let poolAt = pool.length;
function random16(): Uint8Array {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool.subarray(poolAt, (poolAt += 16));
}

// uuid keeps its ids monotonic only when it draws the bytes itself: the same rule, kept here.
let lastMs = -Infinity;
let sequence = 0;

/**
 * Time-ordered ids (UUIDv7): good index locality, and ordering by id is ordering by creation, also
 * within a millisecond (a 31-bit sequence from a random start, one up per id; on overflow the next
 * millisecond).
 */
export function newId(): string {
  const random = random16();
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = ((random[6] & 0x7f) << 24) | (random[7] << 16) | (random[8] << 8) | random[9];
  } else {
    sequence = (sequence + 1) | 0;
    if (sequence === 0) lastMs++;
  }
  return uuidv7({ random, msecs: lastMs, seq: sequence });
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

export const nowIso = (): string => new Date().toISOString();

/** The smallest UUIDv7 of the millisecond `ms`: `id >= idFloorAt(t)` picks the rows made since `t` by an index range. */
export function idFloorAt(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/**
 * A UUIDv7 of the millisecond `ms` with random bits: for a row made now that belongs at an earlier
 * time (an imported post keeps its original date, and ids order every feed), so it sorts there.
 */
export function idAt(ms: number): string {
  const random = random16();
  const sequence = ((random[6] & 0x7f) << 24) | (random[7] << 16) | (random[8] << 8) | random[9];
  return uuidv7({ random, msecs: Math.max(0, Math.floor(ms)), seq: sequence });
}
