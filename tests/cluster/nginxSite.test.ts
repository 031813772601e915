/**
 * deploy/nginx/posts.conf as admins install it, serving: Debian's nginx runs the site with a
 * self-signed certificate (only its ports moved to free ones on loopback) in front of a small
 * HTTP server that answers with what it received, and a real HTTP/2 client that checks the
 * certificate talks to it. What `nginx -t` cannot tell: TLS and HTTP/2 answer, HTTP redirects,
 * the headers reach the app, a notification stream's events come through while it stays open, big
 * bodies get the app's 413, the access log keeps no query string (a streaming client's token).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import { type ClientHttp2Session, connect } from 'node:http2';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureNginx, nginxConfig } from '../../scripts/cluster/balancer';
import { readSite } from '../../scripts/cluster/nginxSite';
import { exited, freePort, logFile } from '../../scripts/cluster/processes';
import { selfSignedCertificate, withCertificate } from './tlsSite';

let dir: string;
let nginx: ChildProcess;
let session: ClientHttp2Session;
let httpPort: number;
let httpsPort: number;
const upstream = createServer();
const openStreams: ServerResponse[] = [];
let streamReached = false;

/** The stand-in app: the stream route sends one event and stays open; every other answer tells what arrived. */
upstream.on('request', (req, res) => {
  if (req.url === '/api/notifications/stream') {
    streamReached = true;
    // No X-Accel-Buffering here, unlike the app: the event must come through on the site's settings alone.
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('event: unread\ndata: {"count":1}\n\n');
    openStreams.push(res);
    return;
  }
  let bytes = 0;
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.on('end', () => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (req.url?.startsWith('/media/')) headers['cache-control'] = 'no-store';
    res.writeHead(200, headers).end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, bytes }));
  });
});

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'posts-nginx-site-test-'));
  chmodSync(dir, 0o711); // nginx's workers (nobody, under root) buffer request bodies in here
  const certificate = selfSignedCertificate(dir);
  [httpPort, httpsPort] = [await freePort(), await freePort()];
  const appPort = await freePort();
  await new Promise<void>((resolve) => upstream.listen(appPort, '127.0.0.1', resolve));
  const site = withCertificate(readSite(), certificate)
    .replace(/^\s*listen \[::\].*\n/gm, '')
    .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
    .replace(/server 127\.0\.0\.1:3000 /, `server 127.0.0.1:${appPort} `)
    // The access log in the run's folder: /var/log/nginx may not be writable where the test runs.
    .replaceAll('/var/log/nginx/', `${dir}/`);
  writeFileSync(path.join(dir, 'posts.conf'), site);
  writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig(dir, path.join(dir, 'posts.conf')));
  const output = logFile(path.join(dir, 'nginx.log'));
  nginx = spawn(
    ensureNginx(() => {}),
    ['-g', 'daemon off;', '-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  nginx.stderr!.on('data', (chunk: Buffer) => 'file' in output && output.file.write(chunk));
  // Up once plain HTTP answers (its redirect).
  for (const deadline = Date.now() + 30_000; ;) {
    const res = await fetch(`http://127.0.0.1:${httpPort}/`, { redirect: 'manual' }).catch(() => null);
    if (res?.status === 301) break;
    if (nginx.exitCode !== null || Date.now() > deadline)
      throw new Error(`nginx did not start: ${path.join(dir, 'nginx.log')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  session = connect(`https://127.0.0.1:${httpsPort}`, {
    ca: readFileSync(certificate.cert),
    servername: 'posts.example',
  });
}, 60_000);

afterAll(async () => {
  session?.close();
  for (const res of openStreams) res.end();
  if (nginx && nginx.exitCode === null) nginx.kill('SIGQUIT');
  if (nginx) await exited(nginx, 5_000);
  await new Promise((resolve) => upstream.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

interface Http2Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over the HTTP/2 session (TLS, the certificate checked for posts.example). */
function request(pathname: string, options: { method?: string; body?: Buffer; headers?: Record<string, string> } = {}) {
  return new Promise<Http2Answer>((resolve, reject) => {
    const stream = session.request({
      ':method': options.method ?? 'GET',
      ':path': pathname,
      ':authority': 'posts.example',
      ...options.headers,
    });
    let headers: Http2Answer['headers'] = {};
    let body = '';
    stream.setEncoding('utf8');
    stream.on('response', (received) => (headers = received));
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body }));
    stream.on('error', reject);
    stream.end(options.body);
  });
}

const received = (answer: Http2Answer) =>
  JSON.parse(answer.body) as { method: string; url: string; headers: IncomingHttpHeaders; bytes: number };

it('answers over TLS and HTTP/2 for posts.example, passing Host, the client, the scheme and its own request id to the app', async () => {
  expect(nginx.exitCode).toBeNull();
  const answer = await request('/api/posts?x=1', {
    headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': 'mine' },
  });
  expect(answer.status).toBe(200);
  const app = received(answer);
  expect(app.url).toBe('/api/posts?x=1');
  expect(app.headers.host).toBe('posts.example');
  expect(app.headers['x-forwarded-proto']).toBe('https');
  expect(app.headers['x-forwarded-for']).toBe('127.0.0.1'); // replaced, not appended to the client's own
  expect(app.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
});

it('logs requests without their query string: no ?access_token= in the access log', async () => {
  const answer = await request('/api/v1/streaming/health?access_token=very-secret-token');
  expect(received(answer).url).toBe('/api/v1/streaming/health?access_token=very-secret-token'); // the app gets it
  const logged = async () => (existsSync(`${dir}/access.log`) ? readFileSync(`${dir}/access.log`, 'utf8') : '');
  // nginx writes the line as the request ends; the test's own timeout bounds the wait.
  while (!(await logged()).includes('/api/v1/streaming/health'))
    await new Promise((resolve) => setTimeout(resolve, 20));
  const log = await logged();
  expect(log).toContain('"GET /api/v1/streaming/health HTTP/2.0"');
  expect(log).not.toContain('very-secret-token');
  expect(log).toMatch(/ [0-9a-f]{32}\n/); // ends with the request id the app is given
});

it('redirects plain HTTP to HTTPS', async () => {
  const res = await fetch(`http://127.0.0.1:${httpPort}/tags/cats?page=2`, { redirect: 'manual' });
  expect(res.status).toBe(301);
  expect(res.headers.get('location')).toBe('https://127.0.0.1/tags/cats?page=2');
});

it('passes a notification stream on event by event while it stays open', async () => {
  const stream = session.request({ ':path': '/api/notifications/stream', ':authority': 'posts.example' });
  stream.setEncoding('utf8');
  // The stand-in app never ends this answer: its first event arrives through nginx only unbuffered.
  const first = await new Promise<string>((resolve, reject) => {
    let text = '';
    stream.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n\n')) resolve(text);
    });
    stream.on('error', reject);
  });
  expect(streamReached).toBe(true);
  expect(first).toBe('event: unread\ndata: {"count":1}\n\n');
  stream.close();
});

it('sends /media/ files with a year of caching and nosniff, and takes no writes there', async () => {
  const answer = await request('/media/post/abc/640.webp');
  expect(answer.status).toBe(200);
  expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect((await request('/media/post/abc/640.webp', { method: 'PUT', body: Buffer.from('x') })).status).toBe(403);
});

it('keeps /metrics off the site', async () => {
  const answer = await request('/metrics', { headers: { authorization: 'Bearer a-token-of-sixteen-chars' } });
  expect(answer.status).toBe(404);
});

it("passes a 4 MiB upload on, and refuses one past 5 MiB with the app's 413 JSON", async () => {
  const passed = await request('/api/uploads', { method: 'POST', body: Buffer.alloc(4 * 1024 * 1024) });
  expect(passed.status).toBe(200);
  expect(received(passed).bytes).toBe(4 * 1024 * 1024);
  const refused = await request('/api/uploads', { method: 'POST', body: Buffer.alloc(6 * 1024 * 1024) });
  expect(refused.status).toBe(413);
  expect(JSON.parse(refused.body)).toEqual({ message: 'File is too big', code: 'PayloadTooLarge' });
});
