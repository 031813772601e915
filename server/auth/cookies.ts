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

export interface SessionCookie {
  name: string;
  value: string;
  options: ReturnType<typeof base> & { maxAge: number };
}

/** The three cookies of a session: the two HttpOnly tokens and the readable hint. */
export function sessionCookies(secure: boolean, tokens: { access: string; refresh: string }): SessionCookie[] {
  return [
    { name: ACCESS_COOKIE, value: tokens.access, options: { ...base(secure), maxAge: ACCESS_TOKEN_TTL_MS / 1000 } },
    { name: REFRESH_COOKIE, value: tokens.refresh, options: { ...base(secure), maxAge: REFRESH_TOKEN_TTL_MS / 1000 } },
    {
      name: HINT_COOKIE,
      value: '1',
      options: { ...base(secure), httpOnly: false, maxAge: REFRESH_TOKEN_TTL_MS / 1000 },
    },
  ];
}

export function setSessionCookies(
  reply: FastifyReply,
  secure: boolean,
  tokens: { access: string; refresh: string },
): void {
  for (const cookie of sessionCookies(secure, tokens)) reply.setCookie(cookie.name, cookie.value, cookie.options);
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(ACCESS_COOKIE, base(secure));
  reply.clearCookie(REFRESH_COOKIE, base(secure));
  reply.clearCookie(HINT_COOKIE, { ...base(secure), httpOnly: false });
}
