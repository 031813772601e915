/** The `rel="next"` URL of a `Link` response header, or null at the end of a list. */
export function nextLink(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return null;
}
