import type { FastifyReply } from 'fastify';
import { ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_TTL_MS } from './tokens';

export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';
/**
 * Not a secret: tells the page's scripts that a session may exist (the other two are HttpOnly),
 * so a visitor's page never asks for a logged user it cannot have.
 */
export const HINT_COOKIE = 'has_session';

function base(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };
}

export function setSessionCookies(reply: FastifyReply, secure: boolean, tokens: { access: string; refresh: string }): void {
  reply.setCookie(ACCESS_COOKIE, tokens.access, { ...base(secure), maxAge: ACCESS_TOKEN_TTL_MS / 1000 });
  reply.setCookie(REFRESH_COOKIE, tokens.refresh, { ...base(secure), maxAge: REFRESH_TOKEN_TTL_MS / 1000 });
  reply.setCookie(HINT_COOKIE, '1', { ...base(secure), httpOnly: false, maxAge: REFRESH_TOKEN_TTL_MS / 1000 });
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(ACCESS_COOKIE, base(secure));
  reply.clearCookie(REFRESH_COOKIE, base(secure));
  reply.clearCookie(HINT_COOKIE, { ...base(secure), httpOnly: false });
}
