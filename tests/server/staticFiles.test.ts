import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { pickEncoding, staticFiles } from '../../server/http/staticFiles';

const script = `console.log(${JSON.stringify('posts '.repeat(2000))});\n`;

describe('static files of the build', () => {
  let root: string;
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'posts-static-'));
    dir = path.join(root, 'static');
    mkdirSync(path.join(dir, 'chunks'), { recursive: true });
    writeFileSync(path.join(dir, 'chunks', 'app-abc123.js'), script);
    writeFileSync(path.join(dir, 'chunks', 'tiny.js'), '1;');
    writeFileSync(path.join(dir, 'font.woff2'), Buffer.alloc(4096, 7));
    writeFileSync(path.join(root, 'secret.txt'), 'outside');
    app = Fastify();
    await app.register(staticFiles, { dir, warm: false });
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('sends Brotli when accepted, with Vary, an encoding-specific ETag and immutable caching', async () => {
    const res = await get('/_next/static/chunks/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('application/javascript; charset=UTF-8');
    expect(res.headers.etag).toMatch(/^"[\w-]+-br"$/);
    expect(Number(res.headers['content-length'])).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to clients without Brotli, and the plain file to clients without either', async () => {
    const gz = await get('/_next/static/chunks/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('/_next/static/chunks/app-abc123.js', { 'accept-encoding': 'br;q=0, identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers.etag).not.toBe(gz.headers.etag);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await get('/_next/static/chunks/app-abc123.js', { 'accept-encoding': 'br' });
    const again = await get('/_next/static/chunks/app-abc123.js', {
      'accept-encoding': 'br',
      'if-none-match': first.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('leaves tiny and already-compressed files as they are', async () => {
    expect(
      (await get('/_next/static/chunks/tiny.js', { 'accept-encoding': 'br' })).headers['content-encoding'],
    ).toBeUndefined();
    const font = await get('/_next/static/font.woff2', { 'accept-encoding': 'br' });
    expect(font.headers['content-encoding']).toBeUndefined();
    expect(font.headers['content-type']).toBe('font/woff2');
  });

  it('answers 404 for missing files and never leaves the folder', async () => {
    expect((await get('/_next/static/chunks/nope.js')).statusCode).toBe(404);
    expect((await get('/_next/static/..%2fsecret.txt')).statusCode).toBe(404);
    expect((await get('/_next/static/%2e%2e/secret.txt')).statusCode).toBe(404);
    // Fastify refuses a malformed escape itself.
    expect([400, 404]).toContain((await get('/_next/static/%E0%A4%A')).statusCode);
  });
});

describe('pickEncoding', () => {
  const both = { br: Buffer.from('b'), gzip: Buffer.from('g') };
  it('prefers br, honours q=0 and *', () => {
    expect(pickEncoding('gzip, br', both)).toBe('br');
    expect(pickEncoding('br;q=0, gzip', both)).toBe('gzip');
    expect(pickEncoding('*', both)).toBe('br');
    expect(pickEncoding(undefined, both)).toBe('identity');
    expect(pickEncoding('br', {})).toBe('identity');
  });
});
