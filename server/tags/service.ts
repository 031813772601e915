/**
 * Followed tags (issue 73, item 2): a person follows a hashtag, and their home feed then shows the
 * public posts carrying it (`posts/reads.ts`). Private: a follow of a tag is told to no one (no
 * count, no notification, no federation).
 */
import { normalizeTag, tagError, tagKey } from '../../lib/validation';
import { ConflictError, InvalidError } from '../domain/errors';
import { newId, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import { FOLLOWED_TAGS_MAX } from './followedTags';
import type { FollowedTagRow, TagsRepository } from './repository';

/** A tag as the viewer sees it: its name (as written, or as they followed it) and whether they follow it. */
export interface TagState {
  name: string;
  following: boolean;
}

export interface FollowedTag {
  /** The follow's id (the client API's cursor). */
  id: string;
  name: string;
  /** When they followed it (ISO). */
  followedAt: string;
}

export interface TagsServiceDeps {
  tags: TagsRepository;
  publish: PublishEvent;
}

/** The tag as written (one leading '#' dropped), checked: 400 `InvalidTag` when it cannot be a tag. */
export function readTag(raw: string): { name: string; key: string } {
  const name = normalizeTag(raw);
  const error = tagError(name);
  if (error) throw new InvalidError(error, 'InvalidTag');
  return { name, key: tagKey(name) };
}

const toFollowedTag = (r: FollowedTagRow): FollowedTag => ({ id: r.id, name: r.name, followedAt: r.created_at });

export function tagsService({ tags, publish }: TagsServiceDeps) {
  async function state(user: AuthUser, raw: string): Promise<TagState> {
    const { name, key } = readTag(raw);
    return { name, following: await tags.followsTag(user.id, key) };
  }

  return {
    state,

    /** Follows the tag (again: nothing changes); 409 `TooManyFollowedTags` past the limit, nothing written. */
    async follow(user: AuthUser, raw: string): Promise<TagState> {
      const { name, key } = readTag(raw);
      const done = await tags.followTag({
        ...{ id: newId(), userId: user.id, tag: key, name },
        ...{ at: nowIso(), max: FOLLOWED_TAGS_MAX },
      });
      if (!done) throw new ConflictError(`You can follow at most ${FOLLOWED_TAGS_MAX} tags`, 'TooManyFollowedTags');
      publish({ type: 'TagFollowed', userId: user.id, tag: key, following: true });
      return { name, following: true };
    },

    async unfollow(user: AuthUser, raw: string): Promise<TagState> {
      const { name, key } = readTag(raw);
      await tags.unfollowTag(user.id, key);
      publish({ type: 'TagFollowed', userId: user.id, tag: key, following: false });
      return { name, following: false };
    },

    /** Every tag the viewer follows, newest followed first (at most `FOLLOWED_TAGS_MAX`). */
    async list(user: AuthUser): Promise<FollowedTag[]> {
      return (await tags.followedTagsOf(user.id)).map(toFollowedTag);
    },

    /** A page of them (the client API's `followed_tags`): `limit + 1` at most, below `cursor`. */
    async page(user: AuthUser, page: Page): Promise<FollowedTag[]> {
      return (await tags.followedTagsPage(user.id, page.cursor, page.limit + 1)).map(toFollowedTag);
    },
  };
}

export type TagsService = ReturnType<typeof tagsService>;
