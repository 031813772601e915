/**
 * The `rel="me"` addresses of an HTML page (`<a rel="me" href>` and `<link rel="me" href>`), for
 * profile link verification (issue 68, item 32). A small scanner rather than a parser: it reads only
 * tags' attributes, with linear regular expressions, over a page already bounded in size by the
 * fetch; comments, scripts and styles are skipped so a link written inside them does not count.
 */

/** The most addresses read from one page: a page that lists thousands is not verifying anyone. */
const MAX_LINKS = 200;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, code: string) => {
    if (code[0] !== '#') return ENTITIES[code.toLowerCase()] ?? whole;
    const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
  });
}

/** Elements whose content is text, not markup: skipped up to their end tag. */
const RAW_TEXT = /^<(script|style|template|textarea|title|noscript)[\s>/]/i;
const LINK_TAG = /^<(a|link)[\s>/]/i;
const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** The tag's `href` when its `rel` has the token `me`. */
function relMeHref(attributes: string): string | null {
  let rel: string | undefined;
  let href: string | undefined;
  for (const attribute of attributes.matchAll(ATTRIBUTE)) {
    const name = attribute[1].toLowerCase();
    const value = decodeEntities(attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
    // The first of a repeated attribute is the one that counts, as in a browser.
    if (name === 'rel' && rel === undefined) rel = value;
    else if (name === 'href' && href === undefined) href = value.trim();
  }
  return href &&
    rel
      ?.toLowerCase()
      .split(/[\t\n\f\r ]+/)
      .includes('me')
    ? href
    : null;
}

/**
 * The `href`s of the page's `<a>` and `<link>` tags whose `rel` has the token `me`, as written. One
 * pass forward (every skip moves on, never back), so a hostile page costs time linear in its size.
 */
export function relMeLinks(html: string): string[] {
  const found: string[] = [];
  const lower = html.toLowerCase();
  let at = html.indexOf('<');
  while (at !== -1 && found.length < MAX_LINKS) {
    const head = html.slice(at, at + 12);
    let next: number;
    if (head.startsWith('<!--')) {
      const end = html.indexOf('-->', at + 4);
      next = end === -1 ? -1 : end + 3;
    } else if (RAW_TEXT.test(head)) {
      const name = RAW_TEXT.exec(head)![1].toLowerCase();
      const end = lower.indexOf(`</${name}`, at + name.length + 1);
      next = end === -1 ? -1 : end + name.length + 2;
    } else if (LINK_TAG.test(head)) {
      const end = html.indexOf('>', at);
      if (end === -1) break;
      const href = relMeHref(html.slice(at + LINK_TAG.exec(head)![1].length + 1, end));
      if (href) found.push(href);
      next = end + 1;
    } else next = at + 1;
    at = next === -1 ? -1 : html.indexOf('<', next);
  }
  return found;
}

/** An address in one form for comparison: parsed against the page, no fragment, no trailing slash. */
export function comparableUrl(href: string, base?: string): string | null {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return null;
  }
}
