/**
 * Request ids (issue 34, item 5): every answer carries `X-Request-Id`, an incoming one is kept only
 * behind a trusted proxy (and only when printable and short), every log line of the request names it,
 * and a 5xx answer's JSON carries it so a person can quote it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { type TestApp, createTestApp, signIn } from './helpers';
import { openStream } from './sse';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Stands in for Next.js, which writes the raw response itself.
async function pageHandler(_req: IncomingMessage, res: ServerResponse) {
  res.setHeader('content-type', 'text/html');
  res.end('<p>a page</p>');
}

const get = (t: TestApp, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('without a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { pageHandler });
  });
  afterAll(() => t.close());

  it('gives every answer a new id, whatever the client sent', async () => {
    const ids = [];
    for (const url of ['/api/instance', '/api/instance', '/api/no/such/route', '/login', '/home']) {
      const res = await get(t, url, { 'x-request-id': 'chosen-by-the-client' });
      expect([200, 404, 302]).toContain(res.statusCode);
      expect(res.headers['x-request-id'], url).toMatch(UUID);
      ids.push(res.headers['x-request-id']);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries it on a notification stream, which writes its own response', async () => {
    const ann = await signIn(t.app);
    const stream = await openStream(t.app, ann.headers);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('x-request-id')).toMatch(UUID);
    } finally {
      stream.close();
    }
  });

  it('carries it on refusals made before any route (another Host) and keeps it out of 4xx bodies', async () => {
    const res = await get(t, '/api/instance', { host: 'elsewhere.example' });
    expect(res.statusCode).toBe(421);
    expect(res.headers['x-request-id']).toMatch(UUID);
    const missing = await get(t, '/api/no/such/route');
    expect(missing.json()).not.toHaveProperty('requestId');
  });
});

describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' }, { pageHandler });
  });
  afterAll(() => t.close());

  it("keeps the proxy's id when it is printable and at most 128 characters", async () => {
    for (const id of ['edge-7f3a', 'a'.repeat(128), 'Root=1-67891233-abcdef012345678912345678;Parent=x']) {
      for (const url of ['/api/instance', '/login']) {
        const res = await get(t, url, { 'x-request-id': id });
        expect(res.headers['x-request-id'], url).toBe(id);
      }
    }
  });

  it('makes a new one for an id that is too long, empty, or not printable ASCII', async () => {
    for (const id of ['a'.repeat(129), '', 'has space', 'caf\u00e9', 'tab\there']) {
      const res = await get(t, '/api/instance', { 'x-request-id': id });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id'], JSON.stringify(id)).toMatch(UUID);
    }
  });
});

describe('a 5xx answer', () => {
  let t: TestApp;
  let broken: TestApp;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    broken = await createTestApp({ TRUST_PROXY: 'true', LOG_LEVEL: 'info' }, { sameDatabaseAs: t, logStream });
    // Its database closed under it: every read fails, a failure no handler expects (500).
    await broken.db.close();
    broken.db.close = async () => {}; // closed already
  });
  afterAll(async () => {
    await broken?.close();
    await t?.close();
  });

  const signIn = (headers: Record<string, string> = {}) =>
    broken.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'ann@example.com', password: 'correct horse battery' },
      headers,
    });

  it('carries the id in its JSON and in the log line of the failure', async () => {
    const made = await signIn();
    expect(made.statusCode).toBe(500);
    const id = made.headers['x-request-id'];
    expect(id).toMatch(UUID);
    expect(made.json()).toEqual({
      message: 'Something went wrong on our side, please try again',
      code: 'InternalError',
      requestId: id,
    });
    const kept = await signIn({ 'x-request-id': 'support-ticket-42' });
    expect([kept.statusCode, kept.json().requestId, kept.headers['x-request-id']]).toEqual([
      500,
      'support-ticket-42',
      'support-ticket-42',
    ]);
    const failures = lines.filter((line) => line.msg === 'request failed');
    expect(failures.map((line) => line.requestId)).toEqual([id, 'support-ticket-42']);
    // Every line logged for a request names it (background work's lines, such as a list import's
    // retries on the closed database, belong to no request).
    for (const line of lines)
      if ('req' in line || line.msg === 'request failed') expect(line.requestId, line.msg as string).toBeTruthy();
  });
});
