/**
 * Serves Next.js's build output under `/_next/static/` itself, compressed once: Brotli (quality 11)
 * and gzip (level 9) bodies are made a file at a time in the background at start-up (or on first
 * request) and kept in memory, so browsers get fewer bytes than from Next's on-the-fly gzip and no
 * request pays for compression (docs/benchmarks/notes.md#pages-and-static-files). Every file there is content-hashed or build-scoped, hence immutable.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export const STATIC_PREFIX = '/_next/static/';
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.mjs': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.map': 'application/json; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=UTF-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
};
/** Types worth compressing; fonts and images already are. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt']);

type Encoding = 'br' | 'gzip' | 'identity';

interface Entry {
  type: string;
  etag: string;
  bodies: Partial<Record<Encoding, Buffer>>;
}

/** The best encoding the client accepts among those we hold (q=0 means "not this one"). */
export function pickEncoding(header: string | undefined, available: Partial<Record<Encoding, Buffer>>): Encoding {
  const accepted = new Set<string>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  for (const encoding of ['br', 'gzip'] as const) {
    if (available[encoding] && (accepted.has(encoding) || accepted.has('*'))) return encoding;
  }
  return 'identity';
}

async function buildEntry(file: string): Promise<Entry> {
  const ext = path.extname(file);
  const raw = await readFile(file);
  const entry: Entry = {
    type: TYPES[ext] ?? 'application/octet-stream',
    etag: createHash('sha1').update(raw).digest('base64url').slice(0, 22),
    bodies: { identity: raw },
  };
  if (COMPRESSIBLE.has(ext) && raw.length > 1024) {
    const [br, gz] = await Promise.all([
      brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
      gzipAsync(raw, { level: 9 }),
    ]);
    if (br.length < raw.length) entry.bodies.br = br;
    if (gz.length < raw.length) entry.bodies.gzip = gz;
  }
  return entry;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

export interface StaticFilesOptions {
  /** The `.next/static` folder of a production build. */
  dir: string;
  /** Compress every file right away in the background (default true). */
  warm?: boolean;
}

export async function staticFiles(app: FastifyInstance, options: StaticFilesOptions): Promise<void> {
  const dir = path.resolve(options.dir);
  const cache = new Map<string, Promise<Entry | null>>();

  const entryFor = (file: string): Promise<Entry | null> => {
    let entry = cache.get(file);
    if (!entry) {
      entry = buildEntry(file).catch(() => null);
      cache.set(file, entry);
      // A missing file may appear later (never in a finished build, but do not pin the miss).
      void entry.then((e) => e ?? cache.delete(file));
    }
    return entry;
  };

  if (options.warm !== false) {
    // One file at a time, so start-up traffic is never starved; requests share the same promise.
    void (async () => {
      for (const file of await listFiles(dir)) await entryFor(file);
    })();
  }

  const serve = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    let file: string | null = null;
    try {
      file = path.resolve(dir, decodeURIComponent(request.params['*'] ?? ''));
    } catch {
      // malformed escape: not a file of ours
    }
    const entry = file?.startsWith(dir + path.sep) ? await entryFor(file) : null;
    if (!entry)
      return reply.code(404).type('text/plain; charset=utf-8').header('Cache-Control', 'no-store').send('Not found');

    const encoding = pickEncoding(request.headers['accept-encoding'], entry.bodies);
    const etag = `"${entry.etag}${encoding === 'identity' ? '' : `-${encoding}`}"`;
    reply
      .header('Content-Type', entry.type)
      .header('Cache-Control', IMMUTABLE)
      .header('ETag', etag)
      .header('Vary', 'Accept-Encoding');
    if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    const body = entry.bodies[encoding]!;
    reply.header('Content-Length', body.length);
    return reply.send(body);
  };

  app.get(`${STATIC_PREFIX}*`, { schema: { hide: true } }, serve);
}
