/**
 * The bodies OAuth clients and Mastodon apps send: forms and multipart as plain objects, beside
 * Fastify's JSON (the client API and the OAuth endpoints register it in their own plugins).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { UPLOAD_MAX_BYTES } from '../../lib/limits';

/** `a[]=1&a[]=2&b=3` as `{ a: ['1', '2'], b: '3' }`: the form encoding Mastodon apps send. */
export function formFields(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of entries) {
    const isList = rawKey.endsWith('[]');
    const key = isList ? rawKey.slice(0, -2) : rawKey;
    const seen = out[key];
    if (seen === undefined) out[key] = isList ? [value] : value;
    else out[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** Form and multipart bodies as plain objects (files as Buffers), beside Fastify's JSON. */
export async function registerClientBodies(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, formFields(new URLSearchParams(body as string)));
  });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: UPLOAD_MAX_BYTES - 1, files: 2, fields: 50, fieldSize: 16 * 1024, parts: 60 },
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.isMultipart() && request.body && typeof request.body === 'object')
      request.body = formFields(Object.entries(request.body as Record<string, unknown>));
    done();
  });
}
