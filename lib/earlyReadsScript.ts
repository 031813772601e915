/**
 * Early reads: the first API reads of a private page, started by an inline script in the
 * document's head (pages/_document.tsx) so they travel while the app's code downloads, instead of
 * after hydration. The API client takes each answer instead of asking again
 * (services/earlyReads.ts). When the page's main read answers, the script also preloads the image
 * the page will show largest (the first post's, or the profile banner), at high priority.
 *
 * The script is plain ES5 in a string (it runs before any bundle) and builds exactly the URLs the
 * services build; tests/client/services/earlyReads.test.ts holds the two together.
 */

/** Pages a visitor who is not signed in may see; everything else sends them to `/`. */
export const PUBLIC_ROUTES = ['/', '/login', '/createAccount'];

/** Where the started reads wait: absolute URL → the fetch's promise. */
export const EARLY_READS_GLOBAL = '__postsEarlyReads';

/** After this long the app has asked for everything it will; leftovers would be stale. */
export const EARLY_READS_TTL_MS = 10_000;

/** The `sizes` of a post card's image (components/posts/PostImage.tsx), so the preload picks the same file. */
export const POST_IMAGE_SIZES = '(min-width: 640px) 600px, 100vw';

export const EARLY_READS_SCRIPT = `(function(){
var path = location.pathname;
if (${JSON.stringify(PUBLIC_ROUTES)}.indexOf(path) >= 0 || !window.fetch) return;
var reads = window[${JSON.stringify(EARLY_READS_GLOBAL)}] = {};
function read(p, params) {
  var url = new URL(p, location.href);
  for (var k in params) url.searchParams.set(k, params[k]);
  return reads[url.href] = fetch(url.href, { credentials: 'include', headers: { Accept: 'application/json' } });
}
function preload(href, srcset, sizes) {
  if (!href) return;
  var link = document.createElement('link');
  link.setAttribute('rel', 'preload'); link.setAttribute('as', 'image');
  link.setAttribute('href', href); link.setAttribute('fetchpriority', 'high');
  if (srcset) { link.setAttribute('imagesrcset', srcset); link.setAttribute('imagesizes', sizes); }
  document.head.appendChild(link);
}
function then(response, use) {
  response.then(function (r) { return r.ok ? r.clone().json() : null; }).then(function (data) { if (data) use(data); }).catch(function () {});
}
function postImage(post) { if (post) preload(post.image, post.imageInfo && post.imageInfo.srcset, ${JSON.stringify(POST_IMAGE_SIZES)}); }
function segment(s) { return decodeURIComponent(s); }
read('/api/auth/getLoggedUser');
var m;
try {
  if (path === '/home') {
    then(read('/api/posts', { feed: 'following' }), function (posts) { postImage(posts[0]); });
  } else if ((m = /^\\/post\\/([^/]+)$/.exec(path))) {
    var id = encodeURIComponent(segment(m[1]));
    then(read('/api/posts/' + id), postImage);
  } else if ((m = /^\\/profile\\/([^/]+)$/.exec(path))) {
    var name = encodeURIComponent(segment(m[1]));
    then(read('/api/users/' + name), function (body) { preload(body.user && body.user.banner); });
    read('/api/users/' + name + '/posts');
  } else if ((m = /^\\/tagged\\/([^/]+)$/.exec(path))) {
    var seen = {}, tags = [], parts = segment(m[1]).split(',');
    for (var i = 0; i < parts.length; i++) {
      var tag = parts[i].trim();
      if (tag.charAt(0) === '#') tag = tag.slice(1).trim();
      if (!tag || seen[tag.toLowerCase()]) continue;
      seen[tag.toLowerCase()] = true; tags.push(tag);
    }
    if (tags.length) then(read('/api/posts/tagged', { tags: tags.join(',') }), function (posts) { postImage(posts[0]); });
  }
} catch (e) {}
})();`;
