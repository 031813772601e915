/**
 * Outgoing fetches connect to the address that was checked (issue 68, item 36): a host name is
 * resolved once, as the connection is made, and a private answer refuses the connection there.
 * A resolver stub stands for a rebinding DNS server: a public address to the first question,
 * loopback (where a test server listens) to the next. The fetch must ask once and never reach the
 * loopback server; a name that answers loopback at once is refused at connect time.
 */
import type { LookupAddress } from 'node:dns';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UrlError } from '@fedify/vocab-runtime';
import { guardedDocumentLoader, guardedFetch } from '../../server/outgoing/outgoingGuard';

let server: Server;
let port: number;
let reached = 0;
beforeAll(async () => {
  server = createServer((_req, res) => {
    reached++;
    res.writeHead(200, { 'content-type': 'application/activity+json' }).end('{"id":"x"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => void (reached = 0));

/** Answers `answers` in turn (the last one again after that), counting the questions. */
function rebinding(...answers: string[]) {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    const address = answers[Math.min(asked.length, answers.length - 1)];
    asked.push(hostname);
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
  return { asked, resolve };
}

// A public address (TEST-NET ranges count as private): nothing listens for us there, and the
// fetch's own short timeout ends the attempt wherever it goes.
const PUBLIC = '1.1.1.1';

describe('a name that answers public first and loopback next', () => {
  it('the document loader resolves it once and never reaches loopback', async () => {
    const dns = rebinding(PUBLIC, '127.0.0.1');
    const load = guardedDocumentLoader({ allowPrivateAddress: false, resolve: dns.resolve, timeoutMs: 1_000 });
    await expect(load(`http://rebind.test:${port}/actor`)).rejects.toThrow();
    expect(dns.asked).toEqual(['rebind.test']);
    expect(reached).toBe(0);
  });

  it('a plain guarded fetch resolves it once and never reaches loopback', async () => {
    const dns = rebinding(PUBLIC, '127.0.0.1');
    const fetching = guardedFetch(`http://rebind.test:${port}/image.png`, {
      allowPrivateAddress: false,
      resolve: dns.resolve,
      timeoutMs: 1_000,
      accept: 'image/*',
    });
    await expect(fetching).rejects.toThrow();
    expect(dns.asked).toEqual(['rebind.test']);
    expect(reached).toBe(0);
  });
});

describe('a name that answers loopback', () => {
  it.each(['127.0.0.1', '::1', '10.0.0.1', '169.254.169.254'])('%s: refused at connect time', async (address) => {
    const dns = rebinding(address);
    const load = guardedDocumentLoader({ allowPrivateAddress: false, resolve: dns.resolve, timeoutMs: 1_000 });
    await expect(load(`http://rebind.test:${port}/actor`)).rejects.toThrow(
      new UrlError(`Invalid or private address: ${address}`),
    );
    expect(dns.asked).toEqual(['rebind.test']);
    expect(reached).toBe(0);
  });

  it('is connected to as resolved when private addresses are allowed (the stub is what the socket uses)', async () => {
    const dns = rebinding('127.0.0.1');
    const load = guardedDocumentLoader({ allowPrivateAddress: true, resolve: dns.resolve, timeoutMs: 5_000 });
    const loaded = await load(`http://rebind.test:${port}/actor`);
    expect(loaded.document).toEqual({ id: 'x' });
    expect(dns.asked).toEqual(['rebind.test']);
    expect(reached).toBe(1);
  });
});
