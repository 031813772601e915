/**
 * A request whose body never ends does not hold its socket for ever (issue 68, item 36): past
 * `REQUEST_TIMEOUT_MS` the server answers 408 and closes it, so idle sockets cannot take every file
 * descriptor. The wait is for the server's answer; each test's own time (30 s, a hundred times the
 * setting) is shorter than Node's other clocks (60 s for headers), so only this setting closes them.
 */
import { connect } from 'node:net';
import { type TestApp, createTestApp } from './helpers';
import { freePort } from './remoteServer';

let t: TestApp;
let port: number;
beforeAll(async () => {
  port = await freePort();
  t = await createTestApp({ REQUEST_TIMEOUT_MS: '300' });
  await t.app.listen({ host: '127.0.0.1', port });
});
afterAll(async () => t.close());

/** Sends `head` and the start of a body that never ends; resolves with all the server wrote before it closed. */
function stalled(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('a request that never ends', () => {
  it('a body that stops half-way: 408, then the socket is closed', async () => {
    const answer = await stalled(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 30_000);

  it('headers that never end: closed too', async () => {
    const answer = await stalled('GET /api/instance/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(answer).toMatch(/^(HTTP\/1\.1 408 |$)/);
  }, 30_000);

  it('the config reads it; the default is two minutes', async () => {
    expect(t.app.ctx.config.requestTimeoutMs).toBe(300);
    expect((await createTestApp()).app.ctx.config.requestTimeoutMs).toBe(120_000);
  });
});
