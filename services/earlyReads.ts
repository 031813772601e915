/**
 * Takes over a read the document already started (lib/earlyReadsScript.ts): the first request of the app
 * for the same URL gets that answer instead of going out again (the API client's adapter asks here).
 * Each is taken once.
 */
import { EARLY_READS_GLOBAL, EARLY_READS_TTL_MS } from '../lib/earlyReadsScript';

type Reads = Record<string, Promise<Response> | undefined>;

export function takeEarlyRead(href: string): Promise<Response> | null {
  if (typeof window === 'undefined') return null;
  const reads = (window as unknown as Record<string, Reads | undefined>)[EARLY_READS_GLOBAL];
  if (!reads) return null;
  if (performance.now() > EARLY_READS_TTL_MS) {
    delete (window as unknown as Record<string, unknown>)[EARLY_READS_GLOBAL];
    return null;
  }
  const read = reads[href];
  if (!read) return null;
  delete reads[href];
  return read;
}
