/**
 * A post's JSON as `postSchema` describes it, written by hand in ASCII
 * (`http/asciiJson.ts`) for the lists, the hottest answers; tests hold it to the schemas.
 */
import type { ImageInfo, Post } from '../../lib/types';
import { jsonArray, jsonInteger, jsonNullableString, jsonString, jsonStringArray, keptText } from '../http/asciiJson';

function imageInfoJson(info: ImageInfo | null): string {
  if (info === null) return 'null';
  return (
    '{"width":' +
    jsonInteger(info.width) +
    ',"height":' +
    jsonInteger(info.height) +
    ',"thumbhash":' +
    jsonNullableString(info.thumbhash) +
    ',"srcset":' +
    jsonString(info.srcset) +
    '}'
  );
}

/** The post's fields without the closing brace, so that a post with comments can add its own (comments/json.ts). */
export function postFields(p: Post): string {
  return (
    '{"_id":' +
    jsonString(p._id) +
    ',"message":' +
    jsonString(p.message) +
    ',"image":' +
    jsonString(p.image) +
    ',"imageInfo":' +
    imageInfoJson(p.imageInfo) +
    ',"tags":' +
    jsonStringArray(p.tags) +
    ',"creator":' +
    jsonString(p.creator) +
    (p.creatorName === undefined ? '' : ',"creatorName":' + jsonString(p.creatorName)) +
    ',"creatorImage":' +
    jsonNullableString(p.creatorImage) +
    ',"likesCount":' +
    jsonInteger(p.likesCount) +
    ',"dislikesCount":' +
    jsonInteger(p.dislikesCount) +
    ',"commentsCount":' +
    jsonInteger(p.commentsCount) +
    ',"myReaction":' +
    jsonNullableString(p.myReaction) +
    (p.mentions === undefined ? '' : ',"mentions":' + jsonStringArray(p.mentions)) +
    ',"alt":' +
    jsonString(p.alt) +
    ',"sensitive":' +
    (p.sensitive ? 'true' : 'false') +
    ',"spoiler":' +
    jsonString(p.spoiler) +
    (p.crop === undefined ? '' : `,"crop":{"x":${+p.crop.x},"y":${+p.crop.y},"fit":${p.crop.fit ? 'true' : 'false'}}`) +
    ',"createdAt":' +
    jsonString(p.createdAt) +
    ',"updatedAt":' +
    jsonString(p.updatedAt) +
    (p.originalUrl === undefined ? '' : ',"originalUrl":' + jsonString(p.originalUrl)) +
    (p.originalUri === undefined ? '' : ',"originalUri":' + jsonString(p.originalUri))
  );
}

export const postJson = (p: Post): string => postFields(p) + '}';

/** The JSON of posts shared between requests (`keepPostJson`), one flat string each (`keptText`). */
const kept = new WeakMap<Post, string>();

/** Remembers the post's JSON for as long as the post lives: it must not change afterwards. */
export function keepPostJson(p: Post): Post {
  kept.set(p, keptText(postJson(p)));
  return p;
}

/** Most recounted copies kept per post: a few readers' block sets give a few counts. */
const MAX_RECOUNTS = 8;
const recounts = new WeakMap<Post, Map<number, Post>>();

/**
 * The post as a reader with blocks sees it: its comment count without the blocked people's
 * comments (reads.ts `countedFor`). A post whose JSON is kept gets a copy kept alongside it, with
 * its own kept JSON, per count: a page of older posts (which have comments) would otherwise write
 * those posts' JSON again on every request, where a page of new ones uses the kept text
 * (issue 68, item 26: the deep page against the first).
 */
export function withCommentsCount(p: Post, commentsCount: number): Post {
  if (!kept.has(p)) return { ...p, commentsCount };
  let byCount = recounts.get(p);
  const known = byCount?.get(commentsCount);
  if (known) return known;
  const copy = keepPostJson({ ...p, commentsCount });
  if (!byCount) recounts.set(p, (byCount = new Map()));
  if (byCount.size < MAX_RECOUNTS) byCount.set(commentsCount, copy);
  return copy;
}

export const postListJson = (posts: Post[]): string => jsonArray(posts, postJson);

/** The reply serializer (`replyAsciiJson`): the same text as `postListJson`, from the kept JSON where there is some. */
export const postListText = (posts: Post[]): string => jsonArray(posts, (p) => kept.get(p) ?? postJson(p));
