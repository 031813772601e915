/**
 * JSON text in ASCII only: every character outside printable ASCII is written as a `\uXXXX`
 * escape, which any JSON parser reads back as the same string. One emoji in a page makes V8 keep
 * the whole serialized answer as a two-byte string, which Node must then measure and re-encode
 * to UTF-8 on every write; an ASCII answer is copied as it is
 * (docs/benchmarks/log/2026-11-24.md#ascii-json-answers-2026-11-24).
 */

import type { FastifyReply } from 'fastify';
import { markAsciiBody } from './asciiBodies';

/** Escapes for the first 128 code units: null where the character stands for itself. */
const SHORT_ESCAPES: (string | null)[] = Array.from({ length: 128 }, (_, code) => {
  if (code === 0x22) return '\\"';
  if (code === 0x5c) return '\\\\';
  if (code === 0x7f || code < 0x20) return unicodeEscape(code);
  return null;
});
for (const [char, escape] of [
  ['\b', '\\b'],
  ['\f', '\\f'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
] as const)
  SHORT_ESCAPES[char.charCodeAt(0)] = escape;

function unicodeEscape(code: number): string {
  return '\\u' + code.toString(16).padStart(4, '0');
}

// eslint-disable-next-line no-control-regex -- control characters are what must be escaped
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\uffff]/;

/** Arguments per `String.fromCharCode` call, well under any engine's limit. */
const CODES_PER_CALL = 4096;

/** A JSON string literal of `value`, quotes included, in ASCII (lone surrogates too are escaped). */
export function jsonString(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return '"' + value + '"';
  // Built from character codes: a slice of a two-byte string stays two-byte, even when it is ASCII.
  const codes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const escape = code < 128 ? SHORT_ESCAPES[code] : unicodeEscape(code);
    if (escape === null) codes.push(code);
    else for (let k = 0; k < escape.length; k++) codes.push(escape.charCodeAt(k));
  }
  let out = '"';
  for (let from = 0; from < codes.length; from += CODES_PER_CALL)
    out += String.fromCharCode(...codes.slice(from, from + CODES_PER_CALL));
  return out + '"';
}

/** `JSON.stringify(value)` in ASCII: for the small parts of an ASCII answer that no kept text covers. */
export const asciiJsonOf = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => unicodeEscape(char.charCodeAt(0)));

export function jsonNullableString(value: string | null | undefined): string {
  return value === null || value === undefined ? 'null' : jsonString(value);
}

export const jsonStringArray = (values: readonly string[]): string => jsonArray(values, jsonString);

/** An integer as the schema's `integer` type writes it: truncated, and no NaN or Infinity (as fast-json-stringify). */
export function jsonInteger(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`The value "${value}" cannot be converted to an integer.`);
  return String(Math.trunc(value));
}

/**
 * `[a,b,…]` of items each serialized by `item`. Joined with `+`: from kept texts (`keptText`), a list
 * page is made anew for every request at no cost worth keeping it for; its one copy is made in V8's
 * young generation, where it dies young (docs/benchmarks/log/2026-12-03.md, "Pages as their posts' kept text").
 */
export function jsonArray<T>(items: readonly T[], item: (value: T) => string): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i === 0 ? '' : ',') + item(items[i]);
  return out + ']';
}

/**
 * The UTF-8 bytes of JSON kept for as long as a cached object lives, in a buffer of their own:
 * `Buffer.from` takes small buffers from a shared 64 KB pool (Node 24), and one kept slice keeps
 * its whole pool alive: 10,000 cached rows held ~100 MB that way
 * (docs/benchmarks/log/2026-11-26.md#kept-json-held-whole-buffer-pools-2026-11-26). For answers that are not
 * ASCII (the client API's); ASCII JSON is kept as a string (`keptText`).
 */
export function keptBytes(json: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
  bytes.write(json);
  return bytes;
}

/**
 * ASCII JSON made to be kept for as long as a cached row lives: one flat string. Text built with
 * `+` is a tree of its pieces, which would hold more memory than the text and be walked at every
 * write; the round trip through latin1 bytes makes one flat copy.
 */
export const keptText = (json: string): string => Buffer.from(json, 'latin1').toString('latin1');

/**
 * Has `reply` send its payload through `textOf` (e.g. `postListText`: ASCII JSON) as JSON, written
 * to the socket as latin1 (`asciiBodies.ts`): for ASCII text the same bytes as UTF-8, copied as they
 * are instead of encoded (docs/benchmarks/log/2026-12-03.md, "Pages as their posts' kept text").
 */
export function replyAsciiJson<T>(reply: FastifyReply, textOf: (value: T) => string): void {
  reply.type('application/json; charset=utf-8').serializer((value: unknown) => {
    const text = textOf(value as T);
    markAsciiBody(reply.raw);
    return text;
  });
}
