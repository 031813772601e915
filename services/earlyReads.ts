/**
 * Takes over a read the document already started (lib/earlyReadsScript.ts): the first request of the app
 * for the same URL gets that answer instead of going out again. Each is taken once. The API client's
 * axios instance asks here through its adapter (`withEarlyReads`); this module loads with axios, not
 * with every page.
 */
import type { AxiosAdapter, AxiosResponse, AxiosStatic } from 'axios';
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

/**
 * An axios adapter that answers a GET with credentials from the document's early read for its URL,
 * once; every other request, and an early read that got no answer, goes out through `send` (axios's
 * own adapter). `getUri` gives the request's URL as the instance builds it.
 */
export function withEarlyReads(
  axios: AxiosStatic,
  send: AxiosAdapter,
  getUri: (config: Parameters<AxiosAdapter>[0]) => string,
): AxiosAdapter {
  return async (config) => {
    const href = new URL(getUri(config), typeof location === 'undefined' ? 'http://localhost' : location.href).href;
    const early = config.method === 'get' && config.withCredentials ? takeEarlyRead(href) : null;
    if (!early) return send(config);
    let raw: Response;
    let body: string;
    try {
      raw = await early;
      body = await raw.text();
    } catch {
      return send(config);
    }
    // What axios's adapters hand on: the body as text (the instance's transformResponse parses the
    // JSON), the headers, and a rejection for a status that `validateStatus` refuses.
    const response: AxiosResponse = {
      data: body,
      status: raw.status,
      statusText: raw.statusText,
      headers: axios.AxiosHeaders.from(Object.fromEntries(raw.headers.entries())),
      config,
      request: null,
    };
    if (!config.validateStatus || config.validateStatus(raw.status)) return response;
    throw new axios.AxiosError(
      `Request failed with status code ${raw.status}`,
      raw.status >= 500 ? axios.AxiosError.ERR_BAD_RESPONSE : axios.AxiosError.ERR_BAD_REQUEST,
      config,
      null,
      response,
    );
  };
}
