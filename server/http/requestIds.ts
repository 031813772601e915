/**
 * Request ids: every answer carries one (`X-Request-Id`), every log line of the request names it
 * (`requestId`), and 5xx answers put it in their JSON so a person can quote it.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Visible ASCII only, and short: it goes into logs and a response header as sent. */
const ACCEPTED_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * The id a proxy in front gave the request (only believed behind one: `TRUST_PROXY`), when it is
 * printable and at most 128 characters; otherwise a new one.
 */
export function requestIdOf(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const sent = req.headers['x-request-id'];
    if (typeof sent === 'string' && ACCEPTED_ID.test(sent)) return sent;
  }
  return randomUUID();
}
