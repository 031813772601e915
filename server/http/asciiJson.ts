/**
 * JSON text in ASCII only: every character outside printable ASCII is written as a `\uXXXX`
 * escape, which any JSON parser reads back as the same string. One emoji in a page makes V8 keep
 * the whole serialized answer as a two-byte string, which Node must then measure and re-encode
 * to UTF-8 on every write; an ASCII answer is copied as it is
 * (docs/benchmarks.md#ascii-json-answers-2026-11-24).
 */

import type { FastifyReply } from 'fastify';

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

export function jsonNullableString(value: string | null | undefined): string {
  return value === null || value === undefined ? 'null' : jsonString(value);
}

export const jsonStringArray = (values: readonly string[]): string => jsonArray(values, jsonString);

/** An integer as the schema's `integer` type writes it: truncated, and no NaN or Infinity (as fast-json-stringify). */
export function jsonInteger(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`The value "${value}" cannot be converted to an integer.`);
  return String(Math.trunc(value));
}

/** `[a,b,…]` of items each serialized by `item`. */
export function jsonArray<T>(items: readonly T[], item: (value: T) => string): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i === 0 ? '' : ',') + item(items[i]);
  return out + ']';
}

const OPEN = 0x5b, // [
  COMMA = 0x2c,
  CLOSE = 0x5d; // ]

/**
 * The bytes of JSON kept for as long as a cached row lives (latin1 for ASCII JSON), in a buffer of
 * their own: `Buffer.from` takes small buffers from a shared 64 KB pool (Node 24), and one kept
 * slice keeps its whole pool alive: 10,000 cached rows held ~100 MB that way
 * (docs/benchmarks.md#kept-json-held-whole-buffer-pools-2026-11-26).
 */
export function keptBytes(json: string, encoding: 'latin1' | 'utf8' = 'latin1'): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json, encoding));
  bytes.write(json, encoding);
  return bytes;
}

/** `[a,b,…]` of the parts, copied once into one Buffer from `alloc`. */
function joined(parts: readonly Buffer[], alloc: (size: number) => Buffer): Buffer {
  let size = 2 + Math.max(parts.length - 1, 0);
  for (const part of parts) size += part.length;
  const out = alloc(size);
  out[0] = OPEN;
  let at = 1;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) out[at++] = COMMA;
    at += parts[i].copy(out, at);
  }
  out[at] = CLOSE;
  return out;
}

/** Bytes of the arrays lately answered whole from kept items, by their first item's bytes. */
const keptArrays = new Map<Buffer, { parts: Buffer[]; bytes: Buffer; size: number }>();
let keptArraysSize = 0;
/**
 * What they hold at most, counting their items' bytes (an item's row may have left the cache):
 * a few hundred pages of posts, kept low because the bench's peak RSS is near its goal: room for
 * every profile's first page made those pages faster and the peak RSS too high
 * (docs/benchmarks.md, "Room for every profile's first page").
 */
export const KEPT_ARRAYS_BYTES = 4 * 1024 * 1024;

/**
 * `[a,b,…]` of items' ASCII JSON: an item's kept bytes (`keptOf`: `keptBytes`, made once per cached
 * row), else its `jsonOf`. A list page many readers read is the same kept items in the same order,
 * and answering it again with the same Buffer saves a copy and a new Buffer per request
 * (docs/benchmarks.md, "A page's bytes made once"). A page with any item not kept is made each time.
 */
export function keptBytesArray<T>(
  items: readonly T[],
  keptOf: (value: T) => Buffer | undefined,
  jsonOf: (value: T) => string,
): Buffer {
  const parts: Buffer[] = new Array(items.length);
  let allKept = items.length > 0;
  for (let i = 0; i < items.length; i++) {
    const kept = keptOf(items[i]);
    if (kept === undefined) allKept = false;
    parts[i] = kept ?? Buffer.from(jsonOf(items[i]), 'latin1');
  }
  if (!allKept) return joined(parts, Buffer.allocUnsafe);
  const first = parts[0];
  const before = keptArrays.get(first);
  keptArrays.delete(first); // kept in the order of use: the least used go first
  if (before && sameParts(before.parts, parts)) {
    keptArrays.set(first, before);
    return before.bytes;
  }
  if (before) keptArraysSize -= before.size;
  // A buffer of its own: one from the shared pool would keep the whole pool alive with it.
  const bytes = joined(parts, Buffer.allocUnsafeSlow);
  const size = bytes.length * 2; // its items' bytes are as many
  keptArrays.set(first, { parts, bytes, size });
  keptArraysSize += size;
  for (const [oldest, old] of keptArrays) {
    if (keptArraysSize <= KEPT_ARRAYS_BYTES) break;
    keptArrays.delete(oldest);
    keptArraysSize -= old.size;
  }
  return bytes;
}

function sameParts(a: readonly Buffer[], b: readonly Buffer[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Has `reply` send its payload through `bytesOf` (e.g. `postListBytes`: ASCII JSON, whose latin1
 * bytes are its UTF-8 bytes, so Node neither measures nor re-encodes it) as JSON. Fastify's types
 * want a string from a serializer; it sends a Buffer as it is.
 */
export function replyAsciiJson<T>(reply: FastifyReply, bytesOf: (value: T) => Buffer): void {
  reply.type('application/json; charset=utf-8').serializer(bytesOf as unknown as (payload: unknown) => string);
}
