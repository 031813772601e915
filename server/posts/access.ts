/** Whether a post exists and whether the viewer may see it: what reads and writes of posts and comments check first. */
import { NotFoundError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import { type HiddenAuthors, type RowAuthor, showsContent, showsInFeeds } from '../safety/hiddenAuthors';
import { type PostListRow, type PostsRepository, visiblePostOwnerSteps } from './repository';

export const postNotFound = () => new NotFoundError('Post not found', 'PostNotFound');

/** The post's id and creator, or a 404 (also for an id that is not a UUID). */
export async function requirePost(posts: Pick<PostsRepository, 'findPostOwner'>, id: string) {
  const post = isUuid(id) ? await posts.findPostOwner(id) : undefined;
  if (!post) throw postNotFound();
  return post;
}

/** As `requirePost`, and a 404 too when the viewer may not see its creator (a block, a suspension). */
export async function requireVisiblePost(
  data: { posts: Pick<PostsRepository, 'findVisiblePostOwner'> },
  viewerId: string,
  id: string,
) {
  const post = isUuid(id) ? await data.posts.findVisiblePostOwner(viewerId, id) : undefined;
  if (!post) throw postNotFound();
  return post;
}

/** `requireVisiblePost` as a step of a write (`db/steps.ts`): the check in the write's own transaction. */
export function* requireVisiblePostSteps(viewerId: string, id: string) {
  const post = isUuid(id) ? yield* visiblePostOwnerSteps(viewerId, id) : undefined;
  if (!post) throw postNotFound();
  return post;
}

/** Whether the reader may see the post: anywhere (a read, a profile), or in the feeds too. */
export const contentShows = (row: PostListRow, hidden: HiddenAuthors) => showsContent(hidden, creatorOf(row));
export const feedShows = (row: PostListRow, hidden: HiddenAuthors) => showsInFeeds(hidden, creatorOf(row));

const creatorOf = (row: PostListRow): RowAuthor => ({
  id: row.creator_id,
  suspendedAt: row.creator_suspended_at,
  silenced: row.creator_silenced,
});

/**
 * Whether anyone, signed in or not, may see the post: what a visitor's preview and the link
 * unfurlers' meta may show (issue 68, item 3). Today every post is public but those of a suspended
 * author (nobody sees them), of a silenced domain (limited: kept to those who follow them), and
 * posts from other servers (their own server says who may see them; their preview is theirs). The
 * coming per-post visibility adds its own test here.
 */
export const isPubliclyVisible = (row: PostListRow): boolean =>
  row.creator_suspended_at === null && !row.creator_silenced && row.original_uri === null;
