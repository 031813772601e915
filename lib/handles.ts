/** People on other servers (issue 32): their handles (`@name@host`) and how a search names them. */

import { hostKey } from './textEntities';

/**
 * `@name@host`, `name@host` or `acct:name@host` (host may carry a port, and be internationalised):
 * the name and the host.
 */
export const REMOTE_HANDLE = /^(?:acct:)?@?([^@\s/]+)@([\p{L}\p{M}\p{N}.-]+(?::\d+)?)$/iu;

/** A handle's name and host, the host in its ASCII form (`bücher.example` is `xn--bcher-kva.example`); null when it is none. */
export function handleOf(query: string): { name: string; host: string } | null {
  const match = REMOTE_HANDLE.exec(query.trim());
  if (!match) return null;
  const [hostname, port] = match[2].split(':');
  const host = hostKey(hostname, port);
  return host ? { name: match[1], host } : null;
}

/** A search that names someone elsewhere: a handle with a host, or an address. */
export function isRemoteQuery(query: string): boolean {
  const q = query.trim();
  return REMOTE_HANDLE.test(q) || /^https?:\/\/\S+$/i.test(q);
}

/** A username with a host: someone elsewhere. */
export const isRemoteName = (username: string) => username.includes('@');

/** A profile address's name: `@name@host` (someone elsewhere, as the fediverse writes it) is `name@host` here. */
export const profileNameOf = (param: string) =>
  param.startsWith('@') && param.indexOf('@', 1) > 0 ? param.slice(1) : param;

/** The profile path of a username: `/profile/@name@host` for someone elsewhere. */
export function profilePath(username: string): string {
  const at = username.lastIndexOf('@');
  if (at <= 0) return `/profile/${encodeURIComponent(username)}`;
  return `/profile/@${encodeURIComponent(username.slice(0, at))}@${encodeURIComponent(username.slice(at + 1)).replace(/%3A/gi, ':')}`;
}
