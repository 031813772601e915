/** A comment's JSON as `commentSchema` describes it, written by hand in ASCII (`http/asciiJson.ts`). */
import type { Comment, PostWithComments } from '../../lib/types';
import { postFields } from '../posts/json';
import { jsonArray, jsonInteger, jsonNullableString, jsonString, jsonStringArray } from '../http/asciiJson';

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

/** A post with its first comments, as `postWithCommentsSchema` describes it. */
export const postWithCommentsJson = (p: PostWithComments): string =>
  postFields(p) + ',"comments":' + commentListJson(p.comments) + '}';
