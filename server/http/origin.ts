/** Refuses unsafe requests sent by another site (CSRF defence on top of SameSite=Lax cookies). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function refuseCrossOrigin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (SAFE_METHODS.has(request.method)) return;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw crossOrigin();
  const origin = request.headers.origin;
  if (origin === undefined) return; // curl and other non-browser clients send neither header
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw crossOrigin();
  }
  // Behind a trusted proxy Fastify reports the forwarded host here.
  const host = request.host;
  if (!host || originHost !== normalizeHost(host, new URL(origin).protocol)) throw crossOrigin();
}

const crossOrigin = () => new HttpError(403, 'CrossOrigin', 'Cross-origin requests are not allowed');

/** `localhost:80` and `localhost` are the same host for http. */
function normalizeHost(host: string, protocol: string): string {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return host;
  }
}
