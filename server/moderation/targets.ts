/** What a report is about: a post, a comment or a user, found by id (or a user by name), with a label for the log. */
import type { ReportTargetType } from '../../lib/types';
import type { CommentsRepository } from '../comments/repository';
import { NotFoundError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { PostsRepository } from '../posts/repository';
import type { SafetyRepository } from '../safety/repository';
import type { UserRow, UsersRepository } from '../users/repository';
import type { ModerationRepository } from './repository';

export interface Target {
  type: ReportTargetType;
  id: string;
  authorId: string;
  label: string;
  /** The post a comment belongs to. */
  postId?: string;
}

/** The longest start of a post or comment the log keeps as its target's label. */
const LABEL_MAX = 80;

const label = (text: string) => (text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text);

export const userNotFound = () => new NotFoundError('User not found', 'UserNotFound');

export const targetMissing = (type: ReportTargetType) =>
  type === 'user'
    ? userNotFound()
    : new NotFoundError(type === 'post' ? 'Post not found' : 'Comment not found', 'TargetNotFound');

export interface TargetsDeps {
  moderation: Pick<ModerationRepository, 'postPreviews'>;
  safety: Pick<SafetyRepository, 'relationsBetween'>;
  users: Pick<UsersRepository, 'findUserById' | 'findUserByUsername'>;
  posts: Pick<PostsRepository, 'findPostOwner'>;
  comments: Pick<CommentsRepository, 'findComment'>;
}

export function reportTargets({ moderation, safety, users, posts, comments }: TargetsDeps) {
  /** A user by id (what reports store) or by username (what the API and the profile show). */
  async function findUser(idOrName: string): Promise<UserRow | undefined> {
    return isUuid(idOrName) ? users.findUserById(idOrName) : users.findUserByUsername(idOrName);
  }

  async function findTarget(viewer: AuthUser, type: ReportTargetType, rawId: string): Promise<Target | null> {
    if (type === 'user') {
      const user = await findUser(rawId);
      return user ? { type, id: user.id, authorId: user.id, label: user.username } : null;
    }
    if (!isUuid(rawId)) return null;
    if (type === 'post') {
      const [post] = await moderation.postPreviews([rawId]);
      const owner = post && (await posts.findPostOwner(rawId));
      return owner ? { type, id: post.id, authorId: owner.creator_id, label: label(post.message) } : null;
    }
    const comment = await comments.findComment(viewer.id, rawId);
    return comment
      ? { type, id: comment.id, authorId: comment.user_id, label: label(comment.message), postId: comment.post_id }
      : null;
  }

  /**
   * Whether the target's author, or a comment's post's, blocks the viewer: for them it does not
   * exist, so a report of it answers as for a missing one (issue 36) rather than telling them it is there.
   */
  async function blockedFrom(viewer: AuthUser, target: Target): Promise<boolean> {
    const authors = new Set([target.authorId]);
    const postOwner = target.postId && (await posts.findPostOwner(target.postId));
    if (postOwner) authors.add(postOwner.creator_id);
    authors.delete(viewer.id);
    for (const author of authors) if ((await safety.relationsBetween(viewer.id, author)).blocksMe) return true;
    return false;
  }

  return { findTarget, blockedFrom };
}
