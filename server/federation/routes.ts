/**
 * The Fastify side of federation (issue 32). There is no Fedify adapter for Fastify: requests for
 * Fedify's routes are turned into Web `Request`s for `federation.fetch()` and its `Response`s back.
 * - GET/HEAD: an onRequest hook takes WebFinger, NodeInfo, the actors and their collections, and
 *   `/post/{id}`, `/profile/{name}`, `/comments/{id}` when the client asks for ActivityPub JSON;
 *   anything Fedify does not serve (a browser's `Accept`) goes on to the pages.
 * - POST to the inboxes: routes whose body parser keeps the raw bytes (signatures are over them),
 *   at most 256 KB (413 past it). Refused before any JSON-LD work: a body that is not a JSON
 *   object within the JSON-LD bounds (400, `jsonLdBounds.ts`), a suspended domain's (403,
 *   `inboxGate.ts`), one without an HTTP signature (401). An activity signed with a key kept here
 *   is taken by the short path (`signedInbox.ts`); the rest reach Fedify once their signature
 *   verifies (401 if not, `inboxSignature.ts`).
 */
import { respondWithObjectIfAcceptable } from '@fedify/fedify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnreachable } from '../db/errors';
import type { PostsFederation } from './federation';
import { rateLimit } from '../http/rateLimits';
import { keyHostOf, parseInboxBody, suspendedSender } from './inboxGate';
import { hasSignatureHeaders } from './inboxSignature';

/**
 * Thrown while an activity from elsewhere is read (JavaScript's own errors, from the vocabulary's
 * parsers meeting a shape they do not expect): the sender's fault, answered 400. Anything else (the
 * database, the key store) is this server's and stays a 5xx, so the sender tries again.
 */
const isUnreadableInput = (error: unknown) =>
  (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) &&
  !isDatabaseUnreachable(error);

/** Largest activity accepted in an inbox. */
export const INBOX_BODY_LIMIT = 256 * 1024;

/** The media types ActivityPub is sent as (`application/ld+json` with a profile parameter, too). */
const ACTIVITY_TYPES = ['application/activity+json', 'application/ld+json', 'application/json'];

/** Whether the client asks for ActivityPub JSON rather than a page. */
export function wantsActivityJson(accept: string | undefined): boolean {
  return /application\/(activity\+json|ld\+json)/i.test(accept ?? '');
}

/** Paths Fedify always answers (its own negotiation decides). */
const FEDIFY_PATHS = /^\/(\.well-known\/(webfinger|nodeinfo)$|nodeinfo\/|users\/)/;
/** Pages that are ActivityPub objects too: Fedify answers them only for ActivityPub clients. */
const OBJECT_PAGES = /^\/(post|profile|comments)\/([^/]+)$/;

/** Fedify has nothing at that address, or not in a form the client takes: someone else's turn. */
const notServed = new Response(null, { status: 404 });
const notFound = () =>
  new Response(JSON.stringify({ message: 'No such actor or collection', code: 'NotFound' }), {
    status: 404,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

function toRequest(request: FastifyRequest, origin: string, path: string, body?: Buffer): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(path, origin), {
    method: request.method,
    headers,
    body: body && request.method !== 'GET' && request.method !== 'HEAD' ? new Uint8Array(body) : undefined,
  });
}

const ACTIVITY_JSON = /^application\/(activity\+json|ld\+json)/i;

async function send(
  reply: FastifyReply,
  response: Response,
  finishJson: (json: unknown) => Promise<unknown>,
): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value);
  });
  if (ACTIVITY_JSON.test(response.headers.get('content-type') ?? ''))
    return reply.send(JSON.stringify(await finishJson(await response.json())));
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

function hostMeta(origin: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">
  <Link rel="lrdd" template="${origin}/.well-known/webfinger?resource={uri}"/>
</XRD>
`;
}

export interface FederationRouteOptions {
  /** Activities per minute one server may post to the inboxes (0: no limit). */
  inboxPerDomainPerMinute: number;
}

export async function federationRoutes(
  app: FastifyInstance,
  federation: PostsFederation,
  { inboxPerDomainPerMinute }: FederationRouteOptions,
): Promise<void> {
  const origin = federation.site.url;
  const fedify = federation.federation;
  // `ownPath`: only Fedify serves it (`/users/...`), so what it lacks is a 404 rather than a page.
  const fetch = (request: Request, ownPath = false) =>
    fedify.fetch(request, {
      contextData: undefined,
      onNotFound: () => (ownPath ? notFound() : notServed),
      onNotAcceptable: () => notServed,
    });

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const [path, query = ''] = request.url.split(/\?(.*)/s);
    if (path === '/.well-known/host-meta') {
      return reply.code(200).type('application/xrd+xml; charset=utf-8').send(hostMeta(origin));
    }
    if (FEDIFY_PATHS.test(path)) {
      const response = await fetch(toRequest(request, origin, request.url), true);
      if (response !== notServed) return send(reply, response, federation.finishJson);
      return;
    }
    const page = OBJECT_PAGES.exec(path);
    if (!page) return;
    // The same address answers a page or an object: caches must keep them apart.
    reply.header('Vary', 'Accept');
    if (!wantsActivityJson(request.headers.accept)) return;
    const [, kind, raw] = page;
    let id: string;
    try {
      id = decodeURIComponent(raw);
    } catch {
      return;
    }
    if (kind === 'comments') {
      // Only to those who may see the post: anyone, or whoever signed the fetch (issue 70).
      const webRequest = toRequest(request, origin, request.url);
      const ctx = fedify.createContext(webRequest, undefined);
      const note = await federation.commentNoteOf(id, ctx);
      const response =
        note && (await respondWithObjectIfAcceptable(note, webRequest, { contextLoader: ctx.contextLoader }));
      if (response) return send(reply, response, federation.finishJson);
      return;
    }
    // A profile page's address stands for the person: answered as their actor (`/users/{id}`).
    const target = kind === 'profile' ? await federation.data.actorIdNamed(id) : id;
    if (!target) return;
    const actorPath = kind === 'profile' ? `/users/${encodeURIComponent(target)}` : path;
    const response = await fetch(toRequest(request, origin, query ? `${actorPath}?${query}` : actorPath));
    if (response !== notServed) return send(reply, response, federation.finishJson);
  });

  // Per sending server (issue 68, item 37): the host of the signing key, as the request names it,
  // counted before any signature work so that a flood costs one counter each. A forger naming
  // another server's key host spends that server's allowance: its deliveries then get 429 and are
  // retried later by its queue (delayed, not lost). Unsigned requests have no key host: refused
  // below (401) without being counted.
  const perDomain =
    inboxPerDomainPerMinute > 0
      ? rateLimit(app, 'inbox-domain', inboxPerDomainPerMinute, (request) => keyHostOf(request.headers))
      : null;

  await app.register(async (inboxes) => {
    // Only here: elsewhere ActivityPub bodies stay refused (415) and JSON is parsed as usual.
    inboxes.removeContentTypeParser('application/json');
    inboxes.addContentTypeParser(
      ACTIVITY_TYPES,
      { parseAs: 'buffer', bodyLimit: INBOX_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    const inbox = async (request: FastifyRequest, reply: FastifyReply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      // Nothing here reads the activity as JSON-LD before its signature holds (issue 68, item 33).
      const parsed = parseInboxBody(body);
      if ('problem' in parsed) return reply.code(400).send({ message: parsed.problem, code: 'InvalidActivity' });
      const suspended = await suspendedSender(request.headers, parsed.activity, federation.severityOf);
      if (suspended)
        return reply.code(403).send({ message: `${suspended} is blocked on this server`, code: 'DomainSuspended' });
      await perDomain?.(request);
      if (!hasSignatureHeaders(request.headers))
        return reply.code(401).send({ message: 'Activities must carry an HTTP signature', code: 'SignatureRequired' });
      const recipient = (request.params as { identifier?: string }).identifier ?? null;
      const path = request.url.split('?', 1)[0];
      const answer = await federation.inbox.handle({ method: 'POST', path, headers: request.headers, body }, recipient);
      if (answer) return reply.code(answer.status).type('text/plain; charset=utf-8').send(answer.body);
      const webRequest = toRequest(request, origin, request.url, body);
      try {
        if (!(await federation.signatureHolds(webRequest.clone(), parsed.activity)))
          return reply.code(401).send({ message: 'The request signature does not verify', code: 'InvalidSignature' });
        const response = await fetch(webRequest);
        return await send(reply, response, federation.finishJson);
      } catch (error) {
        if (!isUnreadableInput(error)) throw error;
        // The vocabulary could not read what was sent (a number where a date goes, say): Fedify
        // answers its own parse failures 400 but lets these through, which answered 500.
        request.log.info({ err: error }, 'an inbox activity could not be read');
        return reply.code(400).send({ message: 'The activity could not be read', code: 'InvalidActivity' });
      }
    };
    inboxes.post('/inbox', { bodyLimit: INBOX_BODY_LIMIT, schema: { hide: true } }, inbox);
    inboxes.post('/users/:identifier/inbox', { bodyLimit: INBOX_BODY_LIMIT, schema: { hide: true } }, inbox);
  });
}
