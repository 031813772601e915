/**
 * A gzip'd tar (ustar) writer and reader, just what a backup needs: regular files, written one after
 * another, read back in the same order. Node has no tar; the project's only archive package (yazl)
 * writes zips and cannot read them back.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

const BLOCK = 512;

export interface TarWriter {
  /** Adds a file; `name` at most 255 bytes (ustar splits it into prefix and name). */
  add(name: string, bytes: Buffer): Promise<void>;
  /** Adds a file from a stream of known size (a database dump that does not fit in memory). */
  addStream(name: string, size: number, stream: Readable): Promise<void>;
  /** Writes the end blocks and closes the file. */
  finish(): Promise<void>;
}

function header(name: string, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const full = Buffer.from(name, 'utf8');
  let prefix = Buffer.alloc(0);
  let short = full;
  if (full.length > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`Name too long for tar: ${name}`);
    prefix = Buffer.from(name.slice(0, cut));
    short = Buffer.from(name.slice(cut + 1));
  }
  short.copy(block, 0);
  block.write('0000644\0', 100, 'ascii'); // mode
  block.write('0000000\0', 108, 'ascii'); // uid
  block.write('0000000\0', 116, 'ascii'); // gid
  block.write(size.toString(8).padStart(11, '0') + '\0', 124, 'ascii');
  block.write(
    Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, '0') + '\0',
    136,
    'ascii',
  );
  block.write('        ', 148, 'ascii'); // checksum counted as spaces
  block.write('0', 156, 'ascii'); // regular file
  block.write('ustar\x0000', 257, 'ascii');
  prefix.copy(block, 345);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return block;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes `file` as a .tar.gz, entry by entry. */
export function tarWriter(file: string): TarWriter {
  const gzip = createGzip();
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  gzip.pipe(out);
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => gzip.write(chunk, (error) => (error ? reject(error) : resolve())));
  return {
    async add(name, bytes) {
      await write(header(name, bytes.length));
      await write(bytes);
      await write(padding(bytes.length));
    },
    async addStream(name, size, stream) {
      await write(header(name, size));
      let written = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        written += chunk.length;
        await write(chunk);
      }
      if (written !== size) throw new Error(`${name} changed while it was archived (${written} of ${size} bytes)`);
      await write(padding(size));
    },
    async finish() {
      gzip.end(Buffer.alloc(BLOCK * 2));
      await finished(out);
    },
  };
}

export interface TarEntry {
  name: string;
  size: number;
}

/**
 * Reads a .tar.gz entry by entry: `onEntry` gets each file's bytes as a stream-free Buffer when
 * small, or writes it out through `sink` when it asks for one (a database dump).
 */
export async function readTar(
  file: string,
  onEntry: (entry: TarEntry) => Promise<{ sink: Writable } | { collect: (bytes: Buffer) => Promise<void> }>,
): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let current: {
    left: number;
    pad: number;
    chunks: Buffer[];
    sink?: Writable;
    done?: (b: Buffer) => Promise<void>;
  } | null = null;
  let ended = false;
  const source = createReadStream(file).pipe(createGunzip());
  const chunks = async function* () {
    try {
      yield* source as AsyncIterable<Buffer>;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
        throw new Error('The file is not a backup archive (not gzip data), or it is damaged', { cause: error });
      throw error;
    }
  };
  for await (const chunk of chunks()) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (!ended) {
      if (!current) {
        if (pending.length < BLOCK) break;
        const block = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        if (block.every((byte) => byte === 0)) {
          ended = true;
          break;
        }
        const entry = parseHeader(block);
        const handler = await onEntry(entry);
        current = {
          left: entry.size,
          pad: padding(entry.size).length,
          chunks: [],
          ...('sink' in handler ? { sink: handler.sink } : { done: handler.collect }),
        };
      }
      const take = Math.min(current.left, pending.length);
      const part = pending.subarray(0, take);
      pending = pending.subarray(take);
      current.left -= take;
      if (current.sink) {
        if (part.length && !current.sink.write(part)) await new Promise((r) => current!.sink!.once('drain', r));
      } else current.chunks.push(part);
      if (current.left > 0) break;
      if (pending.length < current.pad) break;
      pending = pending.subarray(current.pad);
      if (current.sink) {
        current.sink.end();
        await finished(current.sink);
      } else await current.done!(Buffer.concat(current.chunks));
      current = null;
    }
  }
  if (current || !ended) throw new Error('The archive ends in the middle: it is incomplete or not a backup');
}

function parseHeader(block: Buffer): TarEntry {
  const text = (start: number, length: number) => {
    const raw = block.subarray(start, start + length);
    const end = raw.indexOf(0);
    return raw.subarray(0, end === -1 ? length : end).toString('utf8');
  };
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 32 : block[i];
  if (parseInt(text(148, 8).trim(), 8) !== sum)
    throw new Error('The archive is damaged or not a backup (a bad tar header)');
  const prefix = text(345, 155);
  const name = text(0, 100);
  return { name: prefix ? `${prefix}/${name}` : name, size: parseInt(text(124, 12).trim(), 8) };
}
