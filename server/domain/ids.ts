import { v7 as uuidv7 } from 'uuid';

/** Time-ordered ids: good index locality, and ordering by id is ordering by creation. */
export const newId = (): string => uuidv7();

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

export const nowIso = (): string => new Date().toISOString();

/** The smallest UUIDv7 of the millisecond `ms`: `id >= idFloorAt(t)` picks the rows made since `t` by an index range. */
export function idFloorAt(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}
