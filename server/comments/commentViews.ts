/**
 * The read model of comments, as posts' (`posts/postViews.ts`): a row version the comment cache
 * shares → its `Comment` and that Comment's JSON, made once and held by the row's identity
 * (`cache/renderings.ts`) → the reader's reaction, the shared rows' variant of the row for them.
 */
import type { Comment, PostWithComments } from '../../lib/types';
import type { CacheRegistry } from '../cache/registry';
import { jsonArray, keptText } from '../http/asciiJson';
import { postFields } from '../posts/json';
import type { CommentCache } from './commentCache';
import { commentJson } from './json';
import { toComment } from './mappers';
import type { CommentListRow } from './repository';

export function commentViews(caches: CacheRegistry, commentCache: Pick<CommentCache, 'shares'>) {
  const comments = caches.renderings<CommentListRow, Comment>({ name: 'comment_views' });
  const json = caches.renderings<Comment, string>({ name: 'comment_json' });

  const listText = (list: Comment[]): string => jsonArray(list, (c) => json.peek(c) ?? commentJson(c));
  return {
    /** The row's Comment, made once per row version the cache shares. */
    of(row: CommentListRow): Comment {
      const held = comments.get(row);
      if (held) return held;
      const comment = toComment(row);
      if (commentCache.shares(row)) json.keep(comments.keep(row, comment), keptText(commentJson(comment)));
      return comment;
    },
    /** Reply serializers (`replyAsciiJson`): the JSON from what is held where there is some. */
    listText,
    withCommentsText: (p: PostWithComments): string => postFields(p) + ',"comments":' + listText(p.comments) + '}',
  };
}

export type CommentViews = ReturnType<typeof commentViews>;
