/** Posts and list pages as every reader shares them (`cache/sharedRows.ts`). */
import type { CacheRegistry } from '../cache/registry';
import { type LoadReactions, type LoadRows, type SharedRows, sharedRows } from '../cache/sharedRows';
import type { PostListRow } from './repository';

export type PostCache = SharedRows<PostListRow>;

/** Two reads of a post agree but for the reader's reaction (an edit changes `updated_at`). */
const samePost = (a: PostListRow, b: PostListRow) =>
  a.likes_count === b.likes_count &&
  a.dislikes_count === b.dislikes_count &&
  a.comments_count === b.comments_count &&
  a.updated_at === b.updated_at &&
  a.creator === b.creator &&
  a.creator_image === b.creator_image &&
  a.creator_name === b.creator_name &&
  a.creator_suspended_at === b.creator_suspended_at &&
  a.mentions === b.mentions &&
  a.album === b.album;

/** A reader's home feed pages' keys start with this: their follows change them (`invalidation/table.ts`). */
export const homeListKey = (readerId: string) => `home|${readerId}`;
/** The reader whose home feed list `key` is (`homeListKey`). */
export const homeListReader = (key: string) => key.slice(homeListKey('').length);
/** Everyone's list, a tag's (its key, `tagKey`) and a creator's (their `usernameKey`). */
export const EVERYONE_LIST = 'everyone';
export const tagListKey = (tag: string) => `tag|${tag}`;
export const creatorListKey = (usernameLower: string) => `user|${usernameLower}`;

export const postCache = (
  caches: CacheRegistry,
  load: LoadRows<PostListRow>,
  loadReactions: LoadReactions,
  ttlMs: number,
): PostCache => sharedRows(load, { caches, name: 'post', ttlMs, loadReactions, same: samePost });
