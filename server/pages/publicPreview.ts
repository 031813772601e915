/**
 * A public post's address opened by someone not signed in (issue 68, item 3): a link shared in a
 * chat, an e-mail or another site. Instead of the sign-in redirect every other private page gives a
 * visitor, they get the post itself as plain HTML rendered here (no script), and link unfurlers
 * (which run no script either) find its Open Graph and Twitter card meta in the same answer.
 *
 * Only a post anyone may see (`isPubliclyVisible`, posts/access.ts) is shown; anything else — no
 * such post, a removed one, a suspended author's, one not public — gets the same 404 page, so the
 * answer tells nothing about posts a visitor may not see, and its way forward is to sign in (back
 * to this address) or go to the site. Every text and attribute value goes through `escapeHtml`.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { loginPath } from '../../lib/nextPath';
import { links } from '../../lib/pages';
import type { ImageInfo, Post } from '../../lib/types';
import type { Config } from '../config';
import { DARK_GRAY as p } from '../rendering/darkGray';
import { escapeHtml as e } from '../rendering/escapeHtml';
import { PRIVATE_NO_STORE } from '../http/securityHeaders';
import type { VisitorPage } from './privatePages';

/** The largest image an unfurler is offered: big enough for `summary_large_image`, small enough to fetch. */
const OG_IMAGE_MAX_WIDTH = 1200;
/** How much of the message a description carries (unfurlers cut near 200 characters anyway). */
const DESCRIPTION_MAX = 200;

const STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;background:${p.bg};color:${p.text}}
header{display:flex;justify-content:space-between;align-items:center;gap:12px;padding:12px 16px;border-bottom:1px solid ${p.border}}
header a{font-weight:700;text-decoration:none}main{max-width:640px;margin:0 auto;padding:24px 16px}
article{background:${p.surface};border:1px solid ${p.border};border-radius:12px;overflow:hidden}
img.photo{display:block;width:100%;height:auto;background:${p.surfaceRaised}}img.photo+img.photo{margin-top:4px}.body{padding:16px}
.author{display:flex;align-items:center;gap:10px;font-weight:600}.author img{border-radius:50%}
.message{white-space:pre-wrap;overflow-wrap:anywhere;margin:12px 0}.tags{display:flex;flex-wrap:wrap;gap:8px;padding:0;margin:0 0 12px;list-style:none}
.muted{color:${p.textMuted}}.cta{display:inline-block;margin-top:16px;padding:10px 16px;border-radius:8px;background:${p.accent};color:${p.onAccent};font-weight:600;text-decoration:none}
h1{font-size:1.4rem;margin:0 0 8px}a{color:${p.accent}}a:focus-visible{outline:3px solid ${p.focus};outline-offset:2px}`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** The preview's own policy: no script at all, this stylesheet, images from here and the media origin. */
export function previewCsp(mediaBaseUrl: string): string {
  let media = '';
  try {
    media = ` ${new URL(mediaBaseUrl).origin}`;
  } catch {
    // a path on this origin (`/media`)
  }
  return `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self' data:${media}; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;
}

/** `url widthw` candidates of a srcset. */
function candidates(srcset: string): { url: string; width: number }[] {
  return srcset
    .split(',')
    .map((part) => part.trim().split(/\s+/))
    .filter(([url, w]) => url && /^\d+w$/.test(w ?? ''))
    .map(([url, w]) => ({ url, width: Number.parseInt(w, 10) }));
}

/** The variant an unfurler gets: the widest up to OG_IMAGE_MAX_WIDTH (else the narrowest), with its size. */
export function ogImage(image: string, info: ImageInfo | null): { url: string; width?: number; height?: number } {
  const listed = info ? candidates(info.srcset) : [];
  if (!info || listed.length === 0) return { url: image };
  const fitting = listed.filter((c) => c.width <= OG_IMAGE_MAX_WIDTH);
  const pick = fitting.length > 0 ? fitting[fitting.length - 1] : listed[0];
  return { url: pick.url, width: pick.width, height: Math.round((pick.width * info.height) / info.width) };
}

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function document(head: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${head}<style>${STYLE}</style></head><body>${body}</body></html>`;
}

function siteHeader(siteName: string, next: string): string {
  return `<header><a href="/">${e(siteName)}</a><a href="${e(loginPath(next))}">Sign in</a></header>`;
}

/**
 * The post's photos as plain HTML. An album's (issue 71) are all there, one under another: the
 * page has no script for a carousel, and a visitor scrolls through them as through any page. The
 * first is the page's largest paint (fetched first); the others load as they near the screen.
 * Each has its stored size, so nothing moves as they arrive.
 */
function previewPhotos(post: Post): string {
  const photos = post.images?.length ? post.images : [{ image: post.image, imageInfo: post.imageInfo, alt: post.alt }];
  const many = photos.length > 1;
  return photos
    .map(({ image, imageInfo: info, alt }, i) => {
      const sized = info ? ` width="${info.width}" height="${info.height}"` : '';
      const srcset = info?.srcset ? ` srcset="${e(info.srcset)}" sizes="(max-width: 672px) 100vw, 640px"` : '';
      const load = i === 0 ? ' fetchpriority="high"' : ' loading="lazy"';
      const text = alt || (many ? `Photo ${i + 1} of ${photos.length}` : '');
      return `<img class="photo" src="${e(image)}"${srcset}${sized} alt="${e(text)}"${load}>`;
    })
    .join('');
}

/** The preview's HTML: the post as a visitor sees it, and its meta for unfurlers. */
export function previewHtml(post: Post, { siteUrl, siteName }: { siteUrl: string; siteName: string }): string {
  const path = links.post(post._id);
  const url = new URL(path, siteUrl).href;
  const title = `${post.creator} on ${siteName}`;
  const description = post.message.trim()
    ? clip(post.message, DESCRIPTION_MAX)
    : `A photo by ${post.creator}${post.tags.length ? `: ${post.tags.map((t) => `#${t}`).join(' ')}` : ''}`;
  // A sensitive image stays behind its warning: no picture in the unfurl either.
  const image = post.sensitive ? null : ogImage(post.image, post.imageInfo);
  const imageUrl = image && new URL(image.url, siteUrl).href;
  const meta: [string, string, string][] = [
    ['property', 'og:type', 'article'],
    ['property', 'og:site_name', siteName],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', url],
    ['property', 'article:published_time', post.createdAt],
    ['property', 'article:author', new URL(links.profile(post.creator), siteUrl).href],
    ['name', 'twitter:card', imageUrl ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
    ['name', 'description', description],
  ];
  for (const tag of post.tags) meta.push(['property', 'article:tag', tag]);
  if (image && imageUrl) {
    meta.push(['property', 'og:image', imageUrl], ['name', 'twitter:image', imageUrl]);
    if (image.width && image.height)
      meta.push(
        ['property', 'og:image:width', String(image.width)],
        ['property', 'og:image:height', String(image.height)],
      );
    if (post.alt) meta.push(['property', 'og:image:alt', post.alt], ['name', 'twitter:image:alt', post.alt]);
  }
  const head =
    `<title>${e(title)}</title><link rel="canonical" href="${e(url)}">` +
    meta.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${e(value)}">`).join('');

  const photo = post.sensitive
    ? `<p class="body muted">Sensitive image${post.spoiler ? `: ${e(post.spoiler)}` : ''}. Sign in to see it.</p>`
    : previewPhotos(post);
  const avatar = post.creatorImage ? `<img src="${e(post.creatorImage)}" width="32" height="32" alt="">` : '';
  const tags = post.tags.length
    ? `<ul class="tags">${post.tags.map((t) => `<li><a href="${e(links.tagged([t]))}">#${e(t)}</a></li>`).join('')}</ul>`
    : '';
  const counts = `${plural(post.likesCount, 'like')} · ${plural(post.commentsCount, 'comment')}`;
  const body =
    siteHeader(siteName, path) +
    `<main><article>${photo}<div class="body">` +
    `<div class="author">${avatar}<a href="${e(links.profile(post.creator))}">${e(post.creator)}</a></div>` +
    (post.message ? `<p class="message">${e(post.message)}</p>` : '') +
    tags +
    `<p class="muted">${counts} · <time datetime="${e(post.createdAt)}">${e(post.createdAt.slice(0, 10))}</time></p>` +
    `<a class="cta" href="${e(loginPath(path))}">Sign in to like and comment</a>` +
    `</div></article></main>`;
  return document(head, body);
}

/** The 404 for every post a visitor may not see: the same words whatever the reason. */
export function unavailableHtml(path: string, siteName: string): string {
  return document(
    `<title>Post not available · ${e(siteName)}</title><meta name="robots" content="noindex">`,
    siteHeader(siteName, path) +
      `<main><h1>This post is not available</h1><p class="muted">It may have been removed, or it is not public.</p>` +
      `<p><a class="cta" href="${e(loginPath(path))}">Sign in to see it</a></p><p><a href="/">Go to ${e(siteName)}</a></p></main>`,
  );
}

/** `/post/:id` for a visitor: the preview of a public post, else the 404 page. Always answers. */
export function postPreview(
  posts: { publicOne(id: string): Promise<Post | null> },
  config: Pick<Config, 'siteUrl' | 'instanceName' | 'mediaBaseUrl'>,
): VisitorPage {
  const site = { siteUrl: config.siteUrl, siteName: config.instanceName };
  const send = (reply: FastifyReply, status: number, html: string) =>
    reply
      .code(status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', previewCsp(config.mediaBaseUrl))
      // Not kept anywhere: a post deleted or a suspension must end its preview at once.
      .header('Cache-Control', PRIVATE_NO_STORE)
      .send(html);
  return async (request, reply) => {
    const id = request.params.id ?? '';
    const post = await posts.publicOne(id);
    if (post) await send(reply, 200, previewHtml(post, site));
    else await send(reply, 404, unavailableHtml(links.post(id), site.siteName));
    return true;
  };
}
