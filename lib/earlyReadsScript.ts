/**
 * Early reads: a private page rendered without its data (the client shell) starts its first API
 * reads from an inline script in the document's head (pages/_document.tsx), so they travel while
 * the app's code downloads instead of after hydration. The document lists the reads (lib/pages.ts,
 * for the request's route); the API client takes each answer instead of asking again
 * (services/earlyReads.ts). When the read that says so answers, the script also preloads the image
 * the page will show largest (the first post's, or the profile banner), at high priority.
 */
import { POST_IMAGE_SIZES } from './firstLoad';
import { apiUrls } from './apiUrls';
import { PRIVATE_PAGES, type LargestImageIn, type Params } from './pageReads';
import { OPEN_ROUTES, PUBLIC_ROUTES } from './pages';

/** Where the started reads wait: absolute URL → the fetch's promise. */
export const EARLY_READS_GLOBAL = '__postsEarlyReads';

/** After this long the app has asked for everything it will; leftovers would be stale. */
export const EARLY_READS_TTL_MS = 10_000;

// Plain ES5: it runs before any bundle. It only fetches and preloads what it is given.
const START_READS = `function (reads) {
if (!window.fetch) return;
var started = window[${JSON.stringify(EARLY_READS_GLOBAL)}] = {};
function preload(href, srcset, sizes) {
  if (!href) return;
  var link = document.createElement('link');
  link.setAttribute('rel', 'preload'); link.setAttribute('as', 'image');
  link.setAttribute('href', href); link.setAttribute('fetchpriority', 'high');
  if (srcset) { link.setAttribute('imagesrcset', srcset); link.setAttribute('imagesizes', sizes); }
  document.head.appendChild(link);
}
function preloadLargest(where, data) {
  if (where === 'banner') return preload(data.user && data.user.banner);
  var post = where === 'firstPost' ? data[0] : data;
  if (post) preload(post.image, post.imageInfo && post.imageInfo.srcset, ${JSON.stringify(POST_IMAGE_SIZES)});
}
function start(read) {
  var url = new URL(read.url, location.href).href;
  var response = started[url] = fetch(url, { credentials: 'include', headers: { Accept: 'application/json' } });
  if (read.largestImageIn) response.then(function (r) { return r.ok ? r.clone().json() : null; }).then(function (data) { if (data) preloadLargest(read.largestImageIn, data); }).catch(function () {});
}
try { for (var i = 0; i < reads.length; i++) start(reads[i]); } catch (e) {}
}`;

/** The inline script that starts `reads`. Their URLs come from the request's address: `<` is escaped so none can close the script. */
export function earlyReadsScript(reads: readonly EarlyRead[]): string {
  return `(${START_READS})(${JSON.stringify(reads).replace(/</g, '\\u003c')});`;
}

// The list is the document's business (pages/_document.tsx, on the server): here rather than in
// lib/pages.ts, whose every byte is in the shared first load.
/** A read the early-reads script starts, and where the page's largest image is in its answer. */
export interface EarlyRead {
  url: string;
  largestImageIn?: LargestImageIn;
}

/**
 * The reads a page's document starts before the app's code arrives: the viewer, then the page's
 * first reads; the viewer alone when the params cannot make a URL. Null on the public and open
 * pages: a visitor's lookup there would be a 401 in the console of a page anyone may open, the
 * mailed links' pages arrive with their viewer from the server, and the 404 looks its viewer up
 * after hydration.
 */
export function earlyReadsOf(route: string, query: Record<string, string | string[] | undefined>): EarlyRead[] | null {
  if (PUBLIC_ROUTES.includes(route) || OPEN_ROUTES.includes(route)) return null;
  const reads: EarlyRead[] = [{ url: apiUrls.loggedUser() }];
  const page = PRIVATE_PAGES[route];
  if (!page) return reads;
  const params: Params = {};
  for (const [key, value] of Object.entries(query)) if (typeof value === 'string') params[key] = value;
  let urls: string[];
  try {
    urls = page.reads(params);
  } catch {
    return reads;
  }
  urls.forEach((url, i) =>
    reads.push(i === 0 && page.largestImageIn ? { url, largestImageIn: page.largestImageIn } : { url }),
  );
  return reads;
}
