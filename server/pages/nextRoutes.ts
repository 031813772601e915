/**
 * What Next.js answers with something other than its 404 page: the build's pages (its
 * `pages-manifest.json`), the files of `public/` and its own `/_next/` paths. Any other path is
 * answered by the not-found page rendered in the reader's language (pages/notFound.tsx), since
 * the 404 page Next.js serves itself is made once, in English, at build time (issue 75).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where the not-found page rendered per request lives (pages/notFound.tsx). */
export const NOT_FOUND_PAGE = '/notFound';

/** A page route (`/post/[id]`, `/docs/[...slug]`) as a pattern of the paths it serves. */
function routePattern(route: string): RegExp {
  const escaped = route
    .split('/')
    .map((segment) => {
      if (/^\[\[\.\.\.\w+\]\]$/.test(segment)) return '(?:.*)';
      if (/^\[\.\.\.\w+\]$/.test(segment)) return '(?:.+)';
      if (/^\[\w+\]$/.test(segment)) return '(?:[^/]+)';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/**
 * Whether Next.js serves a path (a page, a public file or its own), from the build in `pagesDir`'s
 * parent; null without a build (development, tests): then Next.js answers everything, as before.
 */
export function nextServes(pagesDir: string, publicDir: string): ((pathname: string) => boolean) | null {
  const manifest = path.join(pagesDir, '..', 'pages-manifest.json');
  if (!existsSync(manifest)) return null;
  const routes = Object.keys(JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, string>)
    // _app, _document and _error are parts of pages, not addresses.
    .filter((route) => !/^\/_(app|document|error)$/.test(route));
  const exact = new Set(routes.filter((route) => !route.includes('[')));
  const patterns = routes.filter((route) => route.includes('[')).map(routePattern);
  const files = new Set(
    existsSync(publicDir)
      ? readdirSync(publicDir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map(
            (entry) =>
              `/${path.relative(publicDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`,
          )
      : [],
  );
  return (pathname) => {
    if (pathname.startsWith('/_next/')) return true;
    const page = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
    return exact.has(page) || files.has(pathname) || patterns.some((pattern) => pattern.test(page));
  };
}
