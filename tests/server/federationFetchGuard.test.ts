/**
 * The outgoing fetch guard (issue 32, item 6): without `FEDERATION_ALLOW_PRIVATE`, a look-up of an
 * actor on loopback is refused before any request leaves (and with it, the same look-up works);
 * the loaders used in production refuse private, loopback and link-local addresses (redirects
 * too), give up on a server that does not answer, and stop reading past the size cap; deliveries
 * to private addresses and suspended domains are not made.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Person } from '@fedify/vocab';
import { FETCH_MAX_BYTES, guardedDocumentLoader, refusedInbox } from '../../server/outgoing/outgoingGuard';
import { type TestApp, createTestApp } from './helpers';
import { type RemoteServer, freePort, startRemoteServer } from './remoteServer';

let remote: RemoteServer;
beforeAll(async () => {
  remote = await startRemoteServer(['zoe']);
});
afterAll(async () => remote.close());

describe('looking up an actor on loopback', () => {
  async function app(env: Record<string, string>): Promise<TestApp> {
    const port = await freePort();
    return createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}`, ...env });
  }

  it('is refused without FEDERATION_ALLOW_PRIVATE: no request leaves', async () => {
    const t = await app({});
    try {
      const before = remote.requests.length;
      expect(await t.app.ctx.federation!.lookupObject(remote.actorUri('zoe'))).toBeNull();
      expect(await t.app.ctx.federation!.lookupObject(`@zoe@${remote.host}`)).toBeNull();
      expect(remote.requests.length).toBe(before);
    } finally {
      await t.close();
    }
  });

  it('works with FEDERATION_ALLOW_PRIVATE=true', async () => {
    const t = await app({ FEDERATION_ALLOW_PRIVATE: 'true' });
    try {
      const zoe = await t.app.ctx.federation!.lookupObject(remote.actorUri('zoe'));
      expect(zoe).toBeInstanceOf(Person);
      expect(zoe?.id?.href).toBe(remote.actorUri('zoe'));
    } finally {
      await t.close();
    }
  });
});

describe('the guarded document loader', () => {
  let server: Server;
  let origin: string;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url!);
      if (req.url === '/actor') {
        res.writeHead(200, { 'content-type': 'application/activity+json' });
        res.end(JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `${origin}/actor` }));
      } else if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'application/activity+json' });
        // No content-length: the cap must hold while reading.
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const more = () => {
          while (sent <= FETCH_MAX_BYTES * 2) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        more();
      } else if (req.url === '/redirect') {
        res.writeHead(302, { location: `${origin}/actor` }).end();
      } else if (req.url === '/silent') {
        // Never answers: the loader's timeout must end it.
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    ['loopback', () => `${origin}/actor`],
    ['localhost', () => `http://localhost:${new URL(origin).port}/actor`],
    ['IPv6 loopback', () => 'http://[::1]/actor'],
    ['link-local (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data'],
    ['a private network', () => 'http://10.0.0.1/actor'],
    ['a private network (192.168)', () => 'http://192.168.1.1/actor'],
    ['not HTTP', () => 'file:///etc/passwd'],
  ])('refuses %s without sending anything', async (_, url) => {
    const before = hits.length;
    await expect(guardedDocumentLoader({ allowPrivateAddress: false })(url())).rejects.toThrow();
    expect(hits.length).toBe(before);
  });

  it('loads a document when private addresses are allowed, following redirects', async () => {
    const loaded = await guardedDocumentLoader({ allowPrivateAddress: true })(`${origin}/redirect`);
    expect(loaded.document).toMatchObject({ id: `${origin}/actor` });
  });

  it('stops reading past the size cap', async () => {
    await expect(guardedDocumentLoader({ allowPrivateAddress: true })(`${origin}/huge`)).rejects.toThrow(/larger than/);
  });

  it('gives up on a server that does not answer', async () => {
    await expect(
      guardedDocumentLoader({ allowPrivateAddress: true, timeoutMs: 300 })(`${origin}/silent`),
    ).rejects.toThrow();
  });
});

describe('deliveries', () => {
  const guard = (severity: 'silence' | 'suspend' | null, allowPrivateAddress = false) => ({
    allowPrivateAddress,
    severityOf: async () => severity,
  });

  it('are not made to private addresses unless allowed', async () => {
    expect(await refusedInbox('http://127.0.0.1:4000/inbox', guard(null))).toMatch(/./);
    expect(await refusedInbox('http://169.254.169.254/inbox', guard(null))).toMatch(/./);
    expect(await refusedInbox('http://127.0.0.1:4000/inbox', guard(null, true))).toBeNull();
    // A public address literal: no DNS look-up needed.
    expect(await refusedInbox('https://93.184.215.14/inbox', guard(null))).toBeNull();
  });

  it('are not made to suspended domains; silenced ones still get them', async () => {
    expect(await refusedInbox('https://93.184.215.14/inbox', guard('suspend'))).toMatch(/suspended/);
    expect(await refusedInbox('https://93.184.215.14/inbox', guard('silence'))).toBeNull();
  });
});
