/**
 * A post's JSON as `postSchema` describes it, written by hand in ASCII
 * (`http/asciiJson.ts`) for the lists, the hottest answers; tests hold it to the schemas. What is
 * made once per shared post is `postViews.ts`'s.
 */
import type { PhotoCrop } from '../../lib/photoCrop';
import type { ImageInfo, Post, PostImage } from '../../lib/types';
import { jsonArray, jsonInteger, jsonNullableString, jsonString, jsonStringArray } from '../http/asciiJson';

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

const cropJson = (crop: PhotoCrop) => `{"x":${+crop.x},"y":${+crop.y},"fit":${crop.fit ? 'true' : 'false'}}`;

/** One photo of an album (issue 71). */
const imageJson = (photo: PostImage) =>
  '{"image":' +
  jsonString(photo.image) +
  ',"imageInfo":' +
  imageInfoJson(photo.imageInfo) +
  ',"alt":' +
  jsonString(photo.alt) +
  ',"crop":' +
  cropJson(photo.crop) +
  '}';

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
    (p.savedByMe ? ',"savedByMe":true' : '') +
    (p.reason === undefined ? '' : ',"reason":{"tag":' + jsonString(p.reason.tag) + '}') +
    (p.mentions === undefined ? '' : ',"mentions":' + jsonStringArray(p.mentions)) +
    ',"alt":' +
    jsonString(p.alt) +
    ',"sensitive":' +
    (p.sensitive ? 'true' : 'false') +
    ',"spoiler":' +
    jsonString(p.spoiler) +
    (p.crop === undefined ? '' : ',"crop":' + cropJson(p.crop)) +
    ',"images":' +
    jsonArray(p.images, imageJson) +
    ',"createdAt":' +
    jsonString(p.createdAt) +
    ',"updatedAt":' +
    jsonString(p.updatedAt) +
    (p.originalUrl === undefined ? '' : ',"originalUrl":' + jsonString(p.originalUrl)) +
    (p.originalUri === undefined ? '' : ',"originalUri":' + jsonString(p.originalUri)) +
    ',"audience":' +
    jsonString(p.audience) +
    (p.importedFrom === undefined ? '' : ',"importedFrom":' + jsonString(p.importedFrom))
  );
}

export const postJson = (p: Post): string => postFields(p) + '}';

export const postListJson = (posts: Post[]): string => jsonArray(posts, postJson);
