/** Whether a post exists and whether the viewer may see it: what reads and writes of posts and comments check first. */
import { NotFoundError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import { usernameKey } from '../../lib/validation';
import type { AuthUser } from '../domain/types';
import {
  type HiddenAuthors,
  type HiddenAuthorsCache,
  type RowAuthor,
  showsContent,
  showsInFeeds,
} from '../safety/hiddenAuthors';
import { type AudienceReader, audienceAdmits } from '../domain/audience';
import type { HomeFeed } from './homeFeed';
import { type PostListRow, type PostsRepository, visiblePostOwnerSteps } from './repository';

/** A reader as the rules of who sees a post ask of them: the audiences', and the people hidden from them. */
export interface Reader extends AudienceReader {
  hidden: HiddenAuthors;
}

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

/**
 * Whether the reader may see the post: reached by its address or its author (a read, its comments,
 * a profile), or in a feed (`home`, or the `public` lists) too. The author's standing
 * (`safety/visibility.ts`) and the post's audience (`domain/audience.ts`) must both allow it.
 */
export const contentShows = (row: PostListRow, reader: Reader) =>
  showsContent(reader.hidden, creatorOf(row)) && audienceAdmits(row, reader, 'content');
export const feedShows = (row: PostListRow, reader: Reader, feed: 'home' | 'public') =>
  showsInFeeds(reader.hidden, creatorOf(row)) && audienceAdmits(row, reader, feed);

/** A profile's list: null when its author is hidden from the reader (the database says why), else the audience's say. */
export const profileShows = (row: PostListRow, reader: Reader): boolean | null =>
  showsContent(reader.hidden, creatorOf(row)) ? audienceAdmits(row, reader, 'content') : null;

/** Who nobody signed in is: no account has this id (the nil UUID). */
export const NO_VIEWER = '00000000-0000-0000-0000-000000000000';

/**
 * The readers as the rules ask of them. `follows` is read only where an audience may ask it: the
 * public lists show public posts alone, so their readers skip the follow list (and never follow).
 */
export function postReaders(deps: {
  hiddenAuthors: Pick<HiddenAuthorsCache, 'get'>;
  homeFeed: Pick<HomeFeed, 'showsOf'>;
}) {
  return async function readerOf(user: Pick<AuthUser, 'id' | 'username'>, place: 'public' | 'any'): Promise<Reader> {
    const hidden = await deps.hiddenAuthors.get(user.id);
    const nameKey = user.id === NO_VIEWER ? '' : usernameKey(user.username);
    if (place === 'public' || user.id === NO_VIEWER) return { id: user.id, nameKey, hidden, follows: () => false };
    const followed = await deps.homeFeed.showsOf(user.id);
    // The home feed's list leaves out the muted people, whom the reader still follows.
    return { id: user.id, nameKey, hidden, follows: (id) => followed(id) || hidden.followedMuted.has(id) };
  };
}

export type ReaderOf = ReturnType<typeof postReaders>;

const creatorOf = (row: PostListRow): RowAuthor => ({
  id: row.creator_id,
  suspendedAt: row.creator_suspended_at,
  silenced: row.creator_silenced,
});

/**
 * Whether anyone, signed in or not, may see the post: what a visitor's preview and the link
 * unfurlers' meta may show (issue 68, item 3). Today every post is public but those of a suspended
 * author (nobody sees them), of a silenced domain (limited: kept to those who follow them), and
 * posts from other servers (their own server says who may see them; their preview is theirs), and
 * posts for followers or the people mentioned (issue 70; an unlisted post is anyone's by its link).
 */
export const isPubliclyVisible = (row: PostListRow): boolean =>
  row.creator_suspended_at === null &&
  !row.creator_silenced &&
  row.original_uri === null &&
  (row.audience === 'public' || row.audience === 'unlisted');
