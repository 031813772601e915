/** A comment's JSON as `commentSchema` describes it, written by hand in ASCII (`http/asciiJson.ts`). */
import type { Comment, PostWithComments } from '../../lib/types';
import { postFields } from '../posts/json';
import { jsonArray, jsonInteger, jsonNullableString, jsonString, jsonStringArray, keptText } from '../http/asciiJson';

/** The JSON of comments shared between requests, as `keepPostJson` keeps posts'. */
const kept = new WeakMap<Comment, string>();

/** Remembers the comment's JSON for as long as the comment lives: it must not change afterwards. */
export function keepCommentJson(c: Comment): Comment {
  kept.set(c, keptText(commentJson(c)));
  return c;
}

export function commentJson(c: Comment): string {
  return (
    '{"commentId":' +
    jsonString(c.commentId) +
    ',"message":' +
    jsonString(c.message) +
    ',"creator":' +
    jsonString(c.creator) +
    (c.creatorName === undefined ? '' : ',"creatorName":' + jsonString(c.creatorName)) +
    ',"creatorImage":' +
    jsonNullableString(c.creatorImage) +
    ',"likesCount":' +
    jsonInteger(c.likesCount) +
    ',"dislikesCount":' +
    jsonInteger(c.dislikesCount) +
    ',"myReaction":' +
    jsonNullableString(c.myReaction) +
    (c.mentions === undefined ? '' : ',"mentions":' + jsonStringArray(c.mentions)) +
    ',"createdAt":' +
    jsonString(c.createdAt) +
    (c.originalUri === undefined ? '' : ',"originalUri":' + jsonString(c.originalUri)) +
    '}'
  );
}

export const commentListJson = (comments: Comment[]): string => jsonArray(comments, commentJson);

/** A reply serializer (`replyAsciiJson`): the same text as `commentListJson`, from the kept JSON where there is some. */
export const commentListText = (comments: Comment[]): string =>
  jsonArray(comments, (c) => kept.get(c) ?? commentJson(c));

/** A post with its first comments, as `postWithCommentsSchema` describes it. */
export const postWithCommentsJson = (p: PostWithComments): string =>
  postFields(p) + ',"comments":' + commentListJson(p.comments) + '}';

/** The reply serializer: the same text as `postWithCommentsJson`. */
export const postWithCommentsText = (p: PostWithComments): string =>
  postFields(p) + ',"comments":' + commentListText(p.comments) + '}';
