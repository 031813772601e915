import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestApp, createTestApp } from './helpers';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
});

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
  reusedSocket: boolean;
}

/** One request through `agent`; `declared` is the Content-Length, `sent` how much of it is written. */
function send(agent: http.Agent, path: string, declared: number, sent = declared): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: declared > 0 ? 'POST' : 'GET',
        agent,
        headers: declared > 0 ? { 'content-type': 'application/json', 'content-length': declared } : {},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            connection: res.headers.connection,
            body,
            reusedSocket: req.reusedSocket,
          }),
        );
      },
    );
    req.on('error', reject);
    if (sent > 0) req.write(`{"message":"${'x'.repeat(sent - 14)}"}`);
    if (sent === declared) req.end();
  });
}

describe('a body refused for its length', () => {
  it('is read before the 413, and the connection stays open for the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await send(agent, '/api/posts/create', 100_000);
    expect({ status: refused.status, body: JSON.parse(refused.body) }).toEqual({
      status: 413,
      body: { message: 'Request body is too large', code: 'PayloadTooLarge' },
    });
    expect(refused.connection).not.toBe('close');
    const next = await send(agent, '/api/instance/health', 0);
    expect({ status: next.status, reusedSocket: next.reusedSocket }).toEqual({ status: 200, reusedSocket: true });
    agent.destroy();
  });

  it('past 8 MiB is not read: the 413 closes the connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await send(agent, '/api/posts/create', 9 * 1024 * 1024, 1024);
    expect({ status: refused.status, connection: refused.connection }).toEqual({ status: 413, connection: 'close' });
    agent.destroy();
  });
});
