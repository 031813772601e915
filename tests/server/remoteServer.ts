/**
 * Another ActivityPub server beside a test's Posts instance, on loopback: a small Fedify federation
 * with the people the test names, each with an RSA key. Every request it gets is recorded (method,
 * path, headers, raw body); POSTs to its inboxes are answered 202 without a signature check, so a
 * test reads what was delivered (and checks signatures itself when it wants).
 */
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryKvStore, createFederation, generateCryptoKeyPair, signRequest } from '@fedify/fedify';
import { Endpoints, Image, Person, Tombstone } from '@fedify/vocab';

export interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface RemoteServer {
  origin: string;
  /** Its host (`127.0.0.1:port`): what a domain block names. */
  host: string;
  requests: Recorded[];
  /** The JSON of each POST to an inbox. */
  delivered(): Record<string, unknown>[];
  actorUri(name: string): string;
  /** A signed POST of `activity` (JSON) to `inbox`, as `name` (naming `keyId` instead of their key's, if given). */
  signedPost(name: string, inbox: string, activity: Record<string, unknown>, keyId?: string): Promise<Response>;
  /** Their account deleted: their actor (and so their key) answers 410 from now on. */
  bury(name: string): void;
  /** Their actor (and so their key) answers 404 from now on, as a misrouted or misconfigured server may. */
  vanish(name: string): void;
  /** A GET of `url` asking for ActivityPub JSON, signed as `name` (a fetch from their server). */
  signedGet(name: string, url: string): Promise<Response>;
  /** The same request, signed, not sent. */
  signedRequest(name: string, inbox: string, activity: Record<string, unknown>): Promise<Request>;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface RemoteServerOptions {
  /** Paths under its origin (e.g. `/files/banner.png`) in a person's `icon` (avatar) and `image` (banner). */
  pictures?: Record<string, { icon?: string; image?: string }>;
  /** Files it serves as they are (path → content type and bytes); any other file is a 404. */
  files?: Record<string, { type: string; body: Buffer }>;
}

export async function startRemoteServer(names: string[], options: RemoteServerOptions = {}): Promise<RemoteServer> {
  const keys = new Map(
    await Promise.all(names.map(async (name) => [name, await generateCryptoKeyPair('RSASSA-PKCS1-v1_5')] as const)),
  );
  const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  const buried = new Set<string>();
  const vanished = new Set<string>();
  federation
    .setActorDispatcher('/actors/{identifier}', async (ctx, identifier) => {
      if (!keys.has(identifier) || vanished.has(identifier)) return null;
      if (buried.has(identifier)) return new Tombstone({ id: ctx.getActorUri(identifier) });
      const [key] = await ctx.getActorKeyPairs(identifier);
      const pictures = options.pictures?.[identifier] ?? {};
      const picture = (at?: string) => (at ? new Image({ url: new URL(at, ctx.origin) }) : null);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        // Their profile page, apart from the actor's address (as Mastodon's `/@name`).
        url: new URL(`/@${identifier}`, ctx.origin),
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: key.cryptographicKey,
        icon: picture(pictures.icon),
        image: picture(pictures.image),
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => (keys.has(identifier) ? [keys.get(identifier)!] : []));
  federation.setInboxListeners('/actors/{identifier}/inbox', '/inbox');

  const requests: Recorded[] = [];
  let origin = '';
  const server: Server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
    requests.push({ method: req.method!, path: req.url!, headers, body: body.toString() });
    if (req.method === 'POST') {
      res.writeHead(202).end();
      return;
    }
    const file = options.files?.[req.url!];
    if (file) {
      res.writeHead(200, { 'content-type': file.type }).end(file.body);
      return;
    }
    const response = await federation.fetch(new Request(new URL(req.url!, origin), { headers }), {
      contextData: undefined,
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  const actorUri = (name: string) => `${origin}/actors/${name}`;

  return {
    origin,
    host: `127.0.0.1:${port}`,
    requests,
    delivered: () => requests.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body)),
    actorUri,
    signedPost: async (name, inbox, activity, keyId) => fetch(await signed(name, inbox, activity, keyId)),
    signedRequest: (name, inbox, activity) => signed(name, inbox, activity),
    signedGet: async (name, url) =>
      fetch(
        await signRequest(
          new Request(url, { headers: { accept: 'application/activity+json' } }),
          keys.get(name)!.privateKey,
          new URL(`${actorUri(name)}#main-key`),
        ),
      ),
    bury: (name) => void buried.add(name),
    vanish: (name) => void vanished.add(name),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function signed(name: string, inbox: string, activity: Record<string, unknown>, keyId?: string): Promise<Request> {
    return signRequest(
      new Request(inbox, {
        method: 'POST',
        headers: { 'content-type': 'application/activity+json' },
        body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', ...activity }),
      }),
      keys.get(name)!.privateKey,
      new URL(keyId ?? `${actorUri(name)}#main-key`),
    );
  }
}

/** Resolves once `check` holds (each look after a short pause); the test's own timeout bounds it. */
export async function until<T>(check: () => T | Promise<T>): Promise<NonNullable<T>> {
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
