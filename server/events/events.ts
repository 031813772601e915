/**
 * What happened, once committed: every write publishes one of these (`domainEvents.ts`), and
 * whatever keeps a copy of the data listens — the caches (`invalidation/table.ts`), the
 * notification streams, federation next. Named for the domain, not for any listener; they carry
 * ids and small facts, never rows, because they travel between instances as JSON.
 */

import type { Reaction } from '../../lib/types';

/** A notification written: the streams read it by id. */
export interface NotificationWritten {
  userId: string;
  notificationId: string;
}

/**
 * Some of the user's unread notifications went (a like taken back, a deleted post, a block) or
 * were marked read: the streams send the user's new unread count.
 */
export interface UnreadFell {
  userId: string;
  unreadFell: true;
}

/**
 * Where a reaction's toggle left its row's counters, and how far it moved them: a cache whose row
 * shows `now - by` saw every move before this one and takes `now` in place (`cache/sharedRows.ts`).
 */
export interface CountsMoved {
  now: { likes_count: number; dislikes_count: number };
  by: { likes_count: number; dislikes_count: number };
}

/** What a committed write did to someone's notifications. */
export type NotificationChange = NotificationWritten | UnreadFell;

/** Users whose unread notifications went, each once. */
export const unreadFellFor = (userIds: Iterable<string>): UnreadFell[] =>
  [...new Set(userIds)].map((userId) => ({ userId, unreadFell: true }));

/** Every event may say whose notifications it changed. */
interface Notifying {
  notifications?: NotificationChange[];
}

export type DomainEvent = Notifying &
  /** `tags`: their keys (`tagKey`); `creatorName`: the creator's `usernameKey`. */
  /** `fromElsewhere`: a post kept from another server (issue 32), never in "Everyone". */
  /**
   * `imported`: a post brought from an Instagram archive (issue 76) at its original date: it takes
   * its place in the lists by its (backdated) id, but is no news: no stream, no federation delivery.
   */
  (
    | {
        type: 'PostCreated';
        postId: string;
        creatorId: string;
        creatorName: string;
        tags: string[];
        fromElsewhere?: boolean;
        imported?: boolean;
      }
    | { type: 'PostEdited'; postId: string; tagsChanged: boolean }
    | { type: 'PostDeleted'; postId: string; creatorId: string }
    /** `reaction`: the user's reaction to the post now; `counted`: its counts (absent: read them again). */
    | { type: 'PostReacted'; postId: string; userId: string; reaction: Reaction | null; counted?: CountsMoved }
    /** The user saved (or unsaved) the post (issue 73): theirs alone to know, told to no one. */
    | { type: 'PostSaved'; postId: string; userId: string; saved: boolean }
    /** The user followed (or unfollowed) a tag, by its key (issue 73): theirs alone to know. */
    | { type: 'TagFollowed'; userId: string; tag: string; following: boolean }
    | { type: 'CommentAdded'; postId: string; commentId: string; creatorId: string }
    /** `creatorId`: the comment's author (federation sends the Delete as them). */
    | { type: 'CommentDeleted'; postId: string; commentId: string; creatorId: string }
    | {
        type: 'CommentReacted';
        postId: string;
        commentId: string;
        userId: string;
        reaction: Reaction | null;
        counted?: CountsMoved;
      }
    | { type: 'UserRenamed'; userId: string }
    /**
     * `avatarChanged`: the picture shown beside the user's posts and comments; `nameChanged`: the
     * display name shown there (issue 68, item 32).
     */
    | { type: 'UserProfileChanged'; userId: string; avatarChanged: boolean; nameChanged?: boolean }
    | { type: 'UserRoleChanged'; userId: string }
    | { type: 'UserSuspended'; userId: string }
    | { type: 'UserUnsuspended'; userId: string }
    /** `postIds`: the posts that went with the account. */
    | { type: 'AccountDeleted'; userId: string; postIds: string[] }
    /**
     * `approved`: the followee approved a request (issue 70); `activityUri`: the requester's
     * `Follow` elsewhere, answered `Accept`.
     */
    | { type: 'Followed'; followerId: string; followeeId: string; approved?: { activityUri: string | null } }
    /** `byFollowee`: the followee removed the follower (a follower elsewhere is sent `Reject`). */
    | { type: 'Unfollowed'; followerId: string; followeeId: string; byFollowee?: boolean }
    /** A follow of someone who approves followers: waiting for their answer (issue 70). */
    | { type: 'FollowRequested'; followerId: string; followeeId: string }
    /**
     * A waiting request ended without a follow: rejected by the followee, or withdrawn by the
     * requester (`by`). `activityUri`: the requester's `Follow` elsewhere, answered `Reject`.
     */
    | {
        type: 'FollowRequestDropped';
        followerId: string;
        followeeId: string;
        by: 'followee' | 'follower';
        activityUri: string | null;
      }
    /** The user turned "Approve followers" on or off (turning it off approves the waiting requests). */
    | { type: 'FollowApprovalChanged'; userId: string; approveFollowers: boolean }
    /** A block also ends the follows between the two, both ways. */
    | { type: 'Blocked'; userId: string; targetId: string }
    | { type: 'Unblocked'; userId: string; targetId: string }
    | { type: 'Muted'; userId: string; targetId: string }
    | { type: 'Unmuted'; userId: string; targetId: string }
    /** One session ended: a sign-out, a device signed out from Settings, a stolen refresh token. */
    | { type: 'SessionRevoked'; userId: string; sessionId: string }
    /** Every session of the user but `keptSessionId`: a password change or reset, "sign out everywhere else". */
    | { type: 'SessionsRevoked'; userId: string; keptSessionId?: string }
    | { type: 'NotificationsRead'; userId: string }
    /** An admin blocked or unblocked a domain, or changed its severity (issue 32). */
    | { type: 'DomainBlocksChanged'; domain: string }
    /** An admin hid or showed a post or tag in the trends, or a person turned "discoverable" on or off (issue 73). */
    | { type: 'TrendsChanged' }
    /** The user removed notifications of their own (the client API's dismiss and clear). */
    | { type: 'NotificationsRemoved'; userId: string }
  );

export type DomainEventType = DomainEvent['type'];

export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** Every type, once: what a message from another instance is checked against. */
export const EVENT_TYPES = [
  'PostCreated',
  'PostEdited',
  'PostDeleted',
  'PostReacted',
  'PostSaved',
  'TagFollowed',
  'CommentAdded',
  'CommentDeleted',
  'CommentReacted',
  'UserRenamed',
  'UserProfileChanged',
  'UserRoleChanged',
  'UserSuspended',
  'UserUnsuspended',
  'AccountDeleted',
  'Followed',
  'Unfollowed',
  'FollowRequested',
  'FollowRequestDropped',
  'FollowApprovalChanged',
  'Blocked',
  'Unblocked',
  'Muted',
  'Unmuted',
  'SessionRevoked',
  'SessionsRevoked',
  'NotificationsRead',
  'DomainBlocksChanged',
  'NotificationsRemoved',
  'TrendsChanged',
] as const satisfies readonly DomainEventType[];

// Fails to compile when a type is missing from the list above.
type Missing = Exclude<DomainEventType, (typeof EVENT_TYPES)[number]>;
const everyTypeListed: Missing extends never ? true : Missing = true;
void everyTypeListed;

const KNOWN = new Set<string>(EVENT_TYPES);

/** A message as another instance published it, if it is an event this version knows. */
export function asDomainEvent(raw: unknown): DomainEvent | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { type } = raw as { type?: unknown };
  return typeof type === 'string' && KNOWN.has(type) ? (raw as DomainEvent) : null;
}
