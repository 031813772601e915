import type { Feed } from '../../../lib/apiUrls';
import type { ListPage } from '../../../lib/firstLoad';
import type { Post, PostWithComments } from '../../../lib/types';

/** Where a list of posts comes from. */
export type PostSource =
  | { kind: 'feed'; feed: Feed }
  | { kind: 'tagged'; tags: string[] }
  | { kind: 'user'; username: string }
  | { kind: 'saved' }
  | { kind: 'explore' };

export const sourceKey = (source: PostSource): string =>
  source.kind === 'feed'
    ? `feed:${source.feed}`
    : source.kind === 'tagged'
      ? `tagged:${source.tags.join(',')}`
      : source.kind === 'saved' || source.kind === 'explore'
        ? source.kind
        : `user:${source.username}`;

/** What a page the server rendered shows first: a list of posts, or a post with its newest comments. */
export interface FirstPosts {
  list?: { source: PostSource; page: ListPage<Post> };
  post?: { post: PostWithComments; commentsNext: string | null };
}
