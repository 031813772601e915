/**
 * A post's JSON as `postSchema` / `postWithCommentsSchema` describe it, written by hand in ASCII
 * (`http/asciiJson.ts`) for the lists, the hottest answers; tests hold it to the schemas.
 */
import type { ImageInfo, Post, PostWithComments } from '../../lib/types';
import { commentListJson } from '../comments/json';
import {
  asciiJsonBytes,
  jsonArray,
  jsonInteger,
  jsonNullableString,
  jsonString,
  jsonStringArray,
} from '../http/asciiJson';

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

/** The post's fields without the closing brace, so that a post with comments can add its own. */
function postFields(p: Post): string {
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
    ',"createdAt":' +
    jsonString(p.createdAt) +
    ',"updatedAt":' +
    jsonString(p.updatedAt)
  );
}

/** The JSON of posts made once and shared between requests (`keepPostJson`). */
const kept = new WeakMap<Post, string>();

export const postJson = (p: Post): string => kept.get(p) ?? postFields(p) + '}';

/** Remembers the post's JSON for as long as the post lives: it must not change afterwards. */
export function keepPostJson(p: Post): Post {
  kept.set(p, postFields(p) + '}');
  return p;
}

export const postListJson = (posts: Post[]): string => jsonArray(posts, postJson);

export const postWithCommentsJson = (p: PostWithComments): string =>
  postFields(p) + ',"comments":' + commentListJson(p.comments) + '}';

/** Reply serializers (`replyAsciiJson`). */
export const postListBytes = asciiJsonBytes(postListJson);
export const postWithCommentsBytes = asciiJsonBytes(postWithCommentsJson);
