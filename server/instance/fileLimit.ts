/**
 * The process's open-file limit. Every open stream, request and database connection holds a
 * descriptor; past the soft limit `accept` fails with EMFILE and the server stops answering
 * anyone (health, sign-in, pages). Node raises its soft limit to the hard one as it starts
 * (`PlatformInit`), so what is read here is already as high as the system allows.
 */
import { readFileSync } from 'node:fs';

export interface OpenFileLimit {
  soft: number;
  hard: number;
}

/** `unlimited` in /proc, read as a number that compares above any real one. */
const asLimit = (word: string): number => (word === 'unlimited' ? Number.POSITIVE_INFINITY : Number(word));

/** This process's limit, from /proc/self/limits; null where there is none to read (not Linux). */
export function openFileLimit(): OpenFileLimit | null {
  let text: string;
  try {
    text = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  const match = /^Max open files\s+(\S+)\s+(\S+)/m.exec(text);
  if (!match) return null;
  const [soft, hard] = [asLimit(match[1]), asLimit(match[2])];
  return Number.isNaN(soft) || Number.isNaN(hard) ? null : { soft, hard };
}

/**
 * Streams one process may hold: half its descriptors, so requests, the database and uploads keep
 * the other half. Where the limit cannot be read, 4096.
 */
export const streamsForLimit = (limit: OpenFileLimit | null): number =>
  limit && Number.isFinite(limit.soft) ? Math.max(1, Math.floor(limit.soft / 2)) : 4096;
