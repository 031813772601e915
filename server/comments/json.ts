/** A comment's JSON as `commentSchema` describes it, written by hand in ASCII (`http/asciiJson.ts`). */
import type { Comment } from '../../lib/types';
import {
  asciiJsonBytes,
  jsonArray,
  jsonInteger,
  jsonNullableString,
  jsonString,
  jsonStringArray,
} from '../http/asciiJson';

/** The JSON of comments made once and shared between requests (`keepCommentJson`). */
const kept = new WeakMap<Comment, string>();

export const commentJson = (c: Comment): string => kept.get(c) ?? fieldsJson(c);

/** Remembers the comment's JSON for as long as the comment lives: it must not change afterwards. */
export function keepCommentJson(c: Comment): Comment {
  kept.set(c, fieldsJson(c));
  return c;
}

function fieldsJson(c: Comment): string {
  return (
    '{"commentId":' +
    jsonString(c.commentId) +
    ',"message":' +
    jsonString(c.message) +
    ',"creator":' +
    jsonString(c.creator) +
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
    '}'
  );
}

export const commentListJson = (comments: Comment[]): string => jsonArray(comments, commentJson);

/** A reply serializer (`replyAsciiJson`). */
export const commentListBytes = asciiJsonBytes(commentListJson);
