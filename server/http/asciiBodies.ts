/**
 * Answers whose body is ASCII text, written to the socket as latin1. Fastify ends every answer with
 * `res.end(payload)`, which Node writes as UTF-8, encoding the text character by character; as
 * latin1 it copies it as it is, and for ASCII the bytes are the same (docs/benchmarks/log/2026-12-03.md, "Pages as
 * their posts' kept text"). The server makes its answers with this class (`app.ts`).
 */
import { type IncomingMessage, ServerResponse } from 'node:http';

const asciiBody = Symbol('asciiBody');

export class AsciiBodiesResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Set by `markAsciiBody`: a class field, so that every answer has the same shape. */
  [asciiBody] = false;

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (this[asciiBody] && typeof chunk === 'string' && encoding == null) encoding = 'latin1';
    return (super.end as (chunk: unknown, encoding: unknown, callback: unknown) => this)(chunk, encoding, callback);
  }
}

/** The answer's string body is ASCII (a `replyAsciiJson` serializer made it). */
export function markAsciiBody(res: ServerResponse): void {
  if (res instanceof AsciiBodiesResponse) res[asciiBody] = true;
}
