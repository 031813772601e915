import { v7 as uuidv7 } from 'uuid';

/** Time-ordered ids: good index locality, and ordering by id is ordering by creation. */
export const newId = (): string => uuidv7();

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

export const nowIso = (): string => new Date().toISOString();
