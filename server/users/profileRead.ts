/**
 * A profile read from what this instance keeps (issue 31): the person's facts and suspension
 * (`authorCache.ts`), the viewer's blocks either way and mutes (`safety/hiddenAuthors.ts`), and
 * whom the viewer follows (the home feed's follow lists): no statement once those are kept, where
 * the database answered two. The events that change any of them forget it (`invalidation/table.ts`).
 */
import type { MovedTo, Profile } from '../../lib/types';
import { usernameKey } from '../../lib/validation';
import type { AuthUser } from '../domain/types';
import { type HiddenAuthorsCache, blocksAndMute } from '../safety/hiddenAuthors';
import { hiddenFrom, userNotFound } from '../safety/service';
import type { AuthorCache } from './authorCache';
import type { FollowRequestsCache } from './followRequestsCache';

export interface ProfileSources {
  authors: Pick<AuthorCache, 'person'>;
  hiddenPeople: Pick<HiddenAuthorsCache, 'get'>;
  /** Whom each reader's feed shows, kept (`posts/homeFeed`): whether the viewer follows someone there. */
  homeFeed: { shows(readerId: string, creatorId: string): Promise<boolean> };
  isFollowing(followerId: string, followeeId: string): Promise<boolean>;
  /** The account someone moved to (issue 76), read when they have: rare, and never stale. */
  movedToOf(id: string | null): Promise<MovedTo | null>;
  /** Each person's waiting follow requests, kept (`followRequestsCache.ts`): the viewer's "Requested". */
  followRequests: Pick<FollowRequestsCache, 'waitingFor'>;
}

/** The profile of `username` as the viewer may see it (a 404 when missing or hidden from them). */
export function profileReader({
  authors,
  hiddenPeople,
  homeFeed,
  isFollowing,
  movedToOf,
  followRequests,
}: ProfileSources) {
  return async (viewer: AuthUser, username: string): Promise<Profile> => {
    const person = await authors.person(usernameKey(username));
    if (!person) throw userNotFound();
    // The language is the client API's statuses' (mastodon/mappers.ts), not a profile's.
    const { language, ...facts } = person.facts;
    const id = facts._id;
    const relations = blocksAndMute(await hiddenPeople.get(viewer.id), id);
    const standing = { id, suspended_at: person.suspendedAt, domain_silenced: facts.silenced ? 1 : 0 };
    if (hiddenFrom(standing, viewer.id, relations)) throw userNotFound();
    const { blockedByMe, mutedByMe } = relations;
    // A feed shows the people one follows but for the muted (and the suspended, hidden above).
    const followedByMe =
      id !== viewer.id && (mutedByMe ? await isFollowing(viewer.id, id) : await homeFeed.shows(viewer.id, id));
    const movedTo = await movedToOf(person.movedToId);
    const followRequestedByMe =
      !followedByMe && facts.approveFollowers && (await followRequests.waitingFor(id)).has(viewer.id);
    return { ...facts, followedByMe, followRequestedByMe, blockedByMe, mutedByMe, ...(movedTo && { movedTo }) };
  };
}
