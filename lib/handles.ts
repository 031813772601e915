/** People on other servers (issue 32): their handles (`@name@host`) and how a search names them. */

/** `@name@host`, `name@host` or `acct:name@host` (host may carry a port): the name and the host. */
export const REMOTE_HANDLE = /^(?:acct:)?@?([^@\s/]+)@([a-z0-9.-]+(?::\d+)?)$/i;

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
