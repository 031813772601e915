/**
 * The one place a cache learns of a change: for each domain event, what each of this instance's
 * caches forgets. Every instance applies the table to the events it hears (its own at once, the
 * others' through the bus), so no service names a cache. Each line is needed: the table-driven test
 * (tests/server/invalidationTable.test.ts) fails for any line removed. docs/architecture.md, "Events".
 */
import type { SessionCache } from '../auth/sessionCache';
import { commentListKey } from '../comments/commentCache';
import type { CommentListRow } from '../comments/repository';
import type { DomainEvents } from '../events/domainEvents';
import type { DomainEventType, EventOf } from '../events/events';
import type { DomainBlocksCache } from '../federation/domainBlocks';
import type { CommentsByPersonCache } from '../posts/commentsByPerson';
import type { HomeFeed } from '../posts/homeFeed';
import { EVERYONE_LIST, creatorListKey, homeListKey, homeListReader, tagListKey } from '../posts/postCache';
import type { PostListRow } from '../posts/repository';
import type { HiddenAuthorsCache } from '../safety/hiddenAuthors';
import type { SavedIdsCache } from '../saves/savedIds';
import type { FollowedTagsCache } from '../tags/followedTags';
import type { AuthorCache } from '../users/authorCache';
import type { FollowRequestsCache } from '../users/followRequestsCache';
import type { KeptTrends } from '../explore/trends';
import { type SharedRows, pageKey } from '../cache/sharedRows';

type Told<Row extends { id: string; my_reaction: string | null }> = Pick<
  SharedRows<Row>,
  'changed' | 'reacted' | 'removed' | 'added' | 'addedWhere' | 'listsChanged' | 'usersChanged'
>;

/** This instance's caches, as the table sees them: only what they can be told of a change. */
export interface Caches {
  /** Posts and post list pages (`posts/postCache.ts`). */
  posts: Told<PostListRow>;
  /** Comments and comment pages (`comments/commentCache.ts`). */
  comments: Told<CommentListRow>;
  /** Each reader's blocked and muted people, and the silenced people they follow (`safety/hiddenAuthors.ts`). */
  hiddenPeople: Pick<HiddenAuthorsCache, 'forget' | 'forgetAll'>;
  /** Each person's comments by post, for readers who block them (`posts/commentsByPerson.ts`). */
  commentsByPerson: Pick<CommentsByPersonCache, 'forget'>;
  /** The home feed's index of posts by creator and its readers' follow lists (`posts/homeFeed`). */
  homeFeed: Pick<
    HomeFeed,
    'postAdded' | 'postRemoved' | 'showsNewPostOf' | 'followsChanged' | 'everyonesFollowsChanged'
  >;
  /** Authors' public facts and counts (`users/authorCache.ts`). */
  authors: Pick<AuthorCache, 'forget' | 'forgetAll'>;
  /** Each person's waiting follow requests (`users/followRequestsCache.ts`). */
  followRequests: Pick<FollowRequestsCache, 'forget' | 'forgetAll'>;
  /** Access tokens checked lately (`auth/sessionCache.ts`). */
  sessions: Pick<SessionCache, 'forgetSession' | 'forgetUser'>;
  /** Each reader's saved post ids (`saves/savedIds.ts`). */
  savedPosts: Pick<SavedIdsCache, 'forget'>;
  /** Each reader's followed tags and each tag's newest post ids (`tags/followedTags.ts`). */
  followedTags: Pick<FollowedTagsCache, 'forget' | 'added' | 'tagsChanged' | 'followsAnyOf'>;
  /** The blocked domains (`federation/domainBlocks.ts`). */
  domainBlocks: DomainBlocksCache;
  /** Explore's trends (`explore/trends.ts`). */
  trends: Pick<KeptTrends, 'forget'>;
}

export type Line<T extends DomainEventType> = (event: EventOf<T>, caches: Caches) => void;
export type InvalidationTable = { readonly [T in DomainEventType]: readonly Line<T>[] };

/** Three-valued or: true when either says true, unknown (undefined) when either does not know. */
const either = (
  a: (reader: string) => boolean | undefined,
  b: (reader: string) => boolean | undefined,
  reader: string,
): boolean | undefined => {
  const first = a(reader);
  if (first === true) return true;
  const second = b(reader);
  return second === true ? true : first === undefined || second === undefined ? undefined : false;
};

/** The reader's home feed pages (every page's key starts with the first's): what their follows changed. */
const homePagesOf = (caches: Caches, readerId: string) =>
  caches.posts.listsChanged(pageKey(homeListKey(readerId), null));

export const INVALIDATION: InvalidationTable = {
  PostCreated: [
    (e, c) => c.homeFeed.postAdded(e.postId, e.creatorId),
    // The newest of its lists: everyone's, its tags' and its creator's take it on top, and so do
    // the kept home feed first pages of its followers; a reader whose follows are not kept here
    // has their first page walked again from the index (which took it in the line above).
    (e, c) =>
      c.posts.added(e.postId, [
        // Stryker disable next-line ArrayDeclaration: a list named otherwise than any page is never read
        ...(e.fromElsewhere ? [] : [EVERYONE_LIST]),
        ...e.tags.map(tagListKey),
        creatorListKey(e.creatorName),
      ]),
    (e, c) => {
      const shows = c.homeFeed.showsNewPostOf(e.creatorId);
      // A follower of one of its tags takes it too (issue 73: the reader's filter keeps it if public).
      const tagged = c.followedTags.followsAnyOf(e.tags);
      // Stryker disable next-line ArrowFunction: a page not told is forgotten and read again; only slower
      c.posts.addedWhere(e.postId, homeListKey(''), (list) => either(shows, tagged, homeListReader(list)));
    },
    // Its tags' kept newest posts (the home feeds of their followers) take it.
    (e, c) => c.followedTags.added(e.tags),
    (e, c) => c.authors.forget(e.creatorId), // their posts count
  ],
  // Stryker disable next-line StringLiteral: forgetting every list rather than the tags' is only slower
  PostEdited: [
    (e, c) => c.posts.changed(e.postId),
    (e, c) => e.tagsChanged && c.posts.listsChanged('tag|'),
    // A tag follower's home pages hold it, or not, by its tags.
    (e, c) => e.tagsChanged && c.posts.listsChanged('home|'),
    (e, c) => e.tagsChanged && c.followedTags.tagsChanged(),
  ],
  PostDeleted: [
    (e, c) => c.posts.removed(e.postId),
    // Its comments need nothing: a post that is gone has no comment list to read.
    (e, c) => c.homeFeed.postRemoved(e.postId),
    (e, c) => c.authors.forget(e.creatorId),
  ],
  PostReacted: [(e, c) => c.posts.reacted(e.postId, e.userId, e.reaction, e.counted)],
  // The shared rows know nothing of saves: only the reader's own saved ids change.
  PostSaved: [(e, c) => c.savedPosts.forget(e.userId)],
  // Their home feed's tags: the pages take (or leave) the tag's posts.
  TagFollowed: [(e, c) => c.followedTags.forget(e.userId), (e, c) => homePagesOf(c, e.userId)],
  CommentAdded: [
    (e, c) => c.posts.changed(e.postId), // its comment count
    // The newest of its post's comments: the kept first page takes it on top.
    (e, c) => c.comments.added(e.commentId, [commentListKey(e.postId)]),
    (e, c) => c.commentsByPerson.forget(e.creatorId),
  ],
  CommentDeleted: [
    (e, c) => c.posts.changed(e.postId),
    (e, c) => c.comments.removed(e.commentId),
    (e, c) => c.commentsByPerson.forget(e.creatorId),
  ],
  CommentReacted: [(e, c) => c.comments.reacted(e.commentId, e.userId, e.reaction, e.counted)],
  // Posts and comments show their creator's name, avatar and suspension; a session, its user's name.
  UserRenamed: [
    (e, c) => c.sessions.forgetUser(e.userId),
    (_, c) => c.posts.usersChanged(),
    (_, c) => c.comments.usersChanged(),
    (e, c) => c.authors.forget(e.userId),
  ],
  UserProfileChanged: [
    // Stryker disable next-line ConditionalExpression: forgetting the rows on any change is only slower
    (e, c) => (e.avatarChanged || e.nameChanged) && c.posts.usersChanged(),
    // Stryker disable next-line ConditionalExpression: as above
    (e, c) => (e.avatarChanged || e.nameChanged) && c.comments.usersChanged(),
    (e, c) => c.authors.forget(e.userId),
  ],
  UserRoleChanged: [(e, c) => c.sessions.forgetUser(e.userId)],
  // A suspended person's profile is nobody else's to see (the authors' facts keep the suspension).
  UserSuspended: [
    (e, c) => c.sessions.forgetUser(e.userId),
    (_, c) => c.posts.usersChanged(),
    (_, c) => c.comments.usersChanged(),
    (e, c) => c.authors.forget(e.userId),
    // Explore suggests them no more, and their likes and posts leave the trends.
    (_, c) => c.trends.forget(),
  ],
  UserUnsuspended: [
    (_, c) => c.posts.usersChanged(),
    (_, c) => c.comments.usersChanged(),
    // Follow lists leave suspended people out: their followers' lists take them back.
    (_, c) => c.homeFeed.everyonesFollowsChanged(),
    (e, c) => c.authors.forget(e.userId),
  ],
  AccountDeleted: [
    (e, c) => c.sessions.forgetUser(e.userId),
    // Its posts, comments and reactions leave every list and count.
    (_, c) => c.posts.usersChanged(),
    (_, c) => c.comments.usersChanged(),
    (e, c) => e.postIds.forEach((id) => c.homeFeed.postRemoved(id)),
    (e, c) => c.commentsByPerson.forget(e.userId),
    // The follow counts of everyone they followed or who followed them.
    (_, c) => c.authors.forgetAll(),
    // Their follow requests went with them: the counts of those they waited for.
    (_, c) => c.followRequests.forgetAll(),
  ],
  // The two people's follow counts change too; the follower's followed silenced people may. An
  // approved request (issue 70) leaves the followee's waiting ones.
  Followed: [
    (e, c) => c.homeFeed.followsChanged(e.followerId),
    (e, c) => homePagesOf(c, e.followerId),
    (e, c) => c.authors.forget(e.followerId),
    (e, c) => c.authors.forget(e.followeeId),
    (e, c) => c.hiddenPeople.forget(e.followerId),
    (e, c) => e.approved && c.followRequests.forget(e.followeeId),
  ],
  // Also a follower removed by the followee (`byFollowee`, issue 70). The kept home pages need
  // nothing: their filter asks the follow list forgotten here (a post stays only by a followed tag, issue 73).
  Unfollowed: [
    (e, c) => c.homeFeed.followsChanged(e.followerId),
    (e, c) => c.authors.forget(e.followerId),
    (e, c) => c.authors.forget(e.followeeId),
    (e, c) => c.hiddenPeople.forget(e.followerId),
  ],
  // A request waits in the followee's set (the badge, "Requested") until answered or withdrawn.
  FollowRequested: [(e, c) => c.followRequests.forget(e.followeeId)],
  FollowRequestDropped: [(e, c) => c.followRequests.forget(e.followeeId)],
  // Whether a follow of them is a request: their facts (`approveFollowers`, the client API's `locked`).
  FollowApprovalChanged: [(e, c) => c.authors.forget(e.userId)],
  // Both people's hidden sets change; the follows (and follow requests) between them end. The kept
  // home pages need nothing: their filter asks the hidden sets and follow lists forgotten here.
  Blocked: [
    (e, c) => c.hiddenPeople.forget(e.userId),
    (e, c) => c.hiddenPeople.forget(e.targetId),
    (e, c) => c.homeFeed.followsChanged(e.userId),
    (e, c) => c.homeFeed.followsChanged(e.targetId),
    (e, c) => c.authors.forget(e.userId),
    (e, c) => c.authors.forget(e.targetId),
    (e, c) => c.followRequests.forget(e.userId),
    (e, c) => c.followRequests.forget(e.targetId),
  ],
  Unblocked: [(e, c) => c.hiddenPeople.forget(e.userId), (e, c) => c.hiddenPeople.forget(e.targetId)],
  // A page's rows are filtered by the reader's hidden people: a mute needs no more.
  Muted: [(e, c) => c.hiddenPeople.forget(e.userId)],
  // The follow list and the home pages left the muted person out: they take them back.
  Unmuted: [
    (e, c) => c.hiddenPeople.forget(e.userId),
    (e, c) => c.homeFeed.followsChanged(e.userId),
    (e, c) => homePagesOf(c, e.userId),
  ],
  SessionRevoked: [(e, c) => c.sessions.forgetSession(e.sessionId)],
  SessionsRevoked: [(e, c) => c.sessions.forgetUser(e.userId, e.keptSessionId)],
  NotificationsRead: [],
  // A suspended domain's people are suspended with it, and given back when it is lifted; a silenced
  // one's are marked on their rows, and every reader's followed silenced people change.
  DomainBlocksChanged: [
    (_, c) => c.domainBlocks.forget(),
    (_, c) => c.posts.usersChanged(),
    (_, c) => c.comments.usersChanged(),
    (_, c) => c.homeFeed.everyonesFollowsChanged(),
    (_, c) => c.hiddenPeople.forgetAll(),
    // An author's facts say whether their server is silenced (the client API's `limited`).
    (_, c) => c.authors.forgetAll(),
  ],
  NotificationsRemoved: [],
  // What the trends left out changed: they are worked out again at the next read.
  TrendsChanged: [(_, c) => c.trends.forget()],
};

/** Applies `table` to `caches` for every event `events` carries, from now on. */
export function invalidateOnEvents(events: Pick<DomainEvents, 'subscribe'>, caches: Caches, table = INVALIDATION) {
  return events.subscribe((event) => {
    for (const line of table[event.type] as readonly Line<typeof event.type>[]) line(event, caches);
  });
}
