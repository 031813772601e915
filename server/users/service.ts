/** Profiles, follows, account and profile changes. */
import { AUDIENCE_ERROR, isAudience } from '../../lib/audience';
import { isLanguage, LANGUAGES } from '../../lib/i18n/languages';
import { SECURITY_TEXTS } from '../../lib/securityTexts';
import { USERNAME_MAX, USERNAME_PATTERN } from '../../lib/limits';
import type { MovedTo, PersonResult, Profile, User } from '../../lib/types';
import { isRemoteQuery } from '../../lib/handles';
import {
  descriptionError,
  emailError,
  normalizeUsername,
  passwordError,
  usernameError,
  usernameKey,
} from '../../lib/validation';
import type { CurrentPasswordCheck } from '../auth/currentPassword';
import { hashPassword } from '../auth/passwords';
import type { EmailVerificationService, SendAfterCommit } from '../auth/emailVerification';
import type { EmailTokensRepository } from '../auth/emailTokens';
import type { AuthService } from '../auth/service';
import { isUniqueViolation } from '../db/errors';
import type { Transactional } from '../db/repository';
import type { UserRow, UserUpdate } from '../db/schema';
import { ConflictError, ForbiddenError, InvalidError } from '../domain/errors';
import { isUuid, newId, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { MediaService } from '../media/service';
import type { PublishEvent } from '../events/domainEvents';
import { notify, withdrawUnread } from '../notifications/notify';
import type { NotificationsRepository } from '../notifications/repository';
import type { SafetyRepository } from '../safety/repository';
import { requireVisibleUser, userNotFound } from '../safety/service';
import type { AuthorCache } from './authorCache';
import { type AuthorFacts, toProfile, toUser } from './mappers';
import { toPersonResult } from './personRows';
import { followRequestActions } from './followRequests';
import { type ProfileSources, profileReader } from './profileRead';
import { storedFields } from './profileFields';
import { displayNameError, normalizeDisplayName, readFields } from '../../lib/profileFields';
import type { UsersRepository } from './repository';

/** Longest `@` query the suggestions take: a remote name and the start of its server's. */
export const SUGGEST_QUERY_MAX = 100;
/** A username's start: name characters, then maybe `@` and the start of a host (ASCII, as kept). */
const SUGGEST_QUERY = /^[A-Za-z0-9_.-]+(?:@[A-Za-z0-9.:-]*)?$/;

export interface AccountInput {
  username?: unknown;
  email?: unknown;
  newEmail?: unknown;
  password?: unknown;
  newPassword?: unknown;
}

export interface ProfileInput {
  email?: unknown;
  avatar?: unknown;
  banner?: unknown;
  description?: unknown;
  /** '' or null: none (the username shows). */
  displayName?: unknown;
  /** `[{ name, value }]`, at most four: all of them, replacing the kept ones. */
  fields?: unknown;
  /** true: a follow of the user waits for their approval (issue 70); false approves the waiting ones. */
  approveFollowers?: unknown;
  /** The audience new posts start with (lib/audience.ts). */
  defaultAudience?: unknown;
  /** true: suggested to others and their public posts in Explore (issue 73). */
  discoverable?: unknown;
  /** The language chosen for the app (lib/i18n/languages.ts); null: none. */
  language?: unknown;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The display name sent: undefined when not sent, null for none; refused with why (a 400). */
function readDisplayName(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'string') throw new InvalidError('Display name must be text', 'InvalidDisplayName');
  const name = normalizeDisplayName(value);
  const error = displayNameError(name);
  if (error) throw new InvalidError(error, 'InvalidDisplayName');
  return name === '' ? null : name;
}

/** The profile links sent, checked (a 400 says which is wrong and why). */
function readFieldsInput(value: unknown) {
  const shaped =
    Array.isArray(value) &&
    value.every(
      (f) => typeof f === 'object' && f !== null && typeof f.name === 'string' && typeof f.value === 'string',
    );
  if (!shaped) throw new InvalidError('Profile links must be a list of { name, value } texts', 'InvalidFields');
  const read = readFields(value as { name: string; value: string }[]);
  if ('error' in read) throw new InvalidError(read.error, 'InvalidFields');
  return read.fields;
}

export interface UsersServiceDeps {
  data: Transactional<{
    users: UsersRepository;
    notifications: NotificationsRepository;
    emailTokens: EmailTokensRepository;
    safety: SafetyRepository;
  }>;
  auth: Pick<AuthService, 'revokeOtherSessions'>;
  /** The current password, asked before the email or password changes; wrong ones count like a sign-in's. */
  checkPassword: CurrentPasswordCheck;
  /** A new email waits for its link to be opened. */
  emailVerification: Pick<EmailVerificationService, 'stageEmailChange'>;
  media: Pick<MediaService, 'findByUrl'>;
  /** Authors' public facts, kept (`authorCache.ts`). */
  authors: Pick<AuthorCache, 'named' | 'kept' | 'person'>;
  /** Each reader's blocked and muted people, kept (`safety/hiddenAuthors.ts`): profiles read them. */
  hiddenPeople: ProfileSources['hiddenPeople'];
  /** Whom each reader's feed shows, kept (`posts/homeFeed`): profiles read whom the viewer follows there. */
  homeFeed: ProfileSources['homeFeed'];
  /** Each person's waiting follow requests, kept (`followRequestsCache.ts`). */
  followRequests: ProfileSources['followRequests'];
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
  /** Looks up and keeps someone elsewhere named by a search (`@name@host`, an address); null when federation is off. */
  lookUpRemote?: ((query: string) => Promise<{ id: string } | null>) | null;
  /** Checks saved links that are not verified yet, in the background (`linkVerification.ts`). */
  verifyLinks?: (userId: string) => void;
}

export function usersService({
  data,
  auth,
  checkPassword,
  emailVerification,
  media,
  authors,
  hiddenPeople,
  homeFeed,
  followRequests,
  publish,
  lookUpRemote,
  verifyLinks,
}: UsersServiceDeps) {
  const { users } = data;
  /** The account someone moved to (issue 76): read by id, so a rename of it shows at once. */
  async function movedToOf(id: string | null): Promise<MovedTo | null> {
    const row = id ? await users.findUserById(id) : undefined;
    return row ? { _id: row.id, username: row.username, displayName: row.display_name } : null;
  }
  /** A profile or account with `movedTo` when its person moved. */
  async function withMove<T extends Profile | User>(shown: T, row: UserRow): Promise<T> {
    const movedTo = await movedToOf(row.moved_to_id);
    return movedTo ? { ...shown, movedTo } : shown;
  }
  const keptProfile = profileReader({
    authors,
    hiddenPeople,
    homeFeed,
    isFollowing: users.isFollowing,
    movedToOf,
    followRequests,
  });
  const requests = followRequestActions({ data, followRequests, publish });

  const requireVisible = (viewer: AuthUser, username: string) => requireVisibleUser(data, viewer, username);

  async function me(user: AuthUser): Promise<UserRow> {
    return (await users.findUserById(user.id))!;
  }

  /** The signed-in user's email must be the one sent: a client cannot aim at another account. */
  function checkOwnEmail(row: UserRow, email: unknown): void {
    if (typeof email === 'string' && email.trim().toLowerCase() !== row.email) {
      throw new ForbiddenError('You can only change your own account', 'NotYourAccount');
    }
  }

  async function ownImage(
    user: AuthUser,
    field: 'avatar' | 'banner',
    value: unknown,
  ): Promise<string | null | undefined> {
    if (value === undefined) return undefined;
    if (value === null || value === '') return null;
    const found = typeof value === 'string' ? await media.findByUrl(value) : undefined;
    if (!found || found.owner_id !== user.id)
      throw new InvalidError(`The ${field} must be an image uploaded here`, 'InvalidImage');
    return value as string;
  }

  /** Saves the changes and, in the same transaction, stages the link for a new email. */
  async function save(userId: string, changes: UserUpdate, newEmail?: string): Promise<UserRow> {
    try {
      let send: SendAfterCommit | undefined;
      const saved = await data.transaction(async (trx) => {
        const now = nowIso();
        if (newEmail) send = await emailVerification.stageEmailChange(trx, userId, newEmail);
        // A reset link mailed before the change would undo it (a thief's, or one lying in a mailbox).
        if (changes.password_hash) await trx.emailTokens.spendTokens(userId, ['password_reset'], now);
        return trx.users.updateUser(userId, { ...changes, updated_at: now });
      });
      send?.();
      return saved;
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('Username or email is already taken', 'AccountTaken');
      throw err;
    }
  }

  return {
    /** The signed-in user's own account. */
    async account(viewer: AuthUser): Promise<User> {
      const row = await me(viewer);
      return withMove(toUser(row), row);
    },

    /** Someone's profile, from the caches once they keep it (`profileRead.ts`). */
    profile: keptProfile,

    /**
     * The public facts of authors whose content a list has just shown the viewer (so the lists' rules
     * passed them), kept in memory: no relations. By lower-cased username (the client API's statuses).
     */
    authorsNamed(usernames: string[]): Promise<Map<string, AuthorFacts>> {
      return authors.named(usernames.map(usernameKey));
    },

    /** The same by keys already lower-cased (`usernameKey`): the client API's timelines keep them per post. */
    authorsByKey(keys: readonly string[]): Promise<Map<string, AuthorFacts>> {
      return authors.named(keys);
    },

    /** The facts `authorsByKey` would answer for `key` now, when they are kept (else undefined): no statement. */
    authorKept(key: string): AuthorFacts | undefined {
      return authors.kept(key);
    },

    /** The same profile named by id (the Mastodon client API's `accounts/:id`). */
    async profileById(viewer: AuthUser, id: string): Promise<Profile> {
      const row = isUuid(id) ? await users.findUserById(id) : undefined;
      if (!row) throw userNotFound();
      const { relations } = await requireVisible(viewer, row.username);
      const followRequestedByMe =
        Number(row.approve_followers) === 1 &&
        !relations.followedByMe &&
        (await requests.isRequested(viewer.id, row.id));
      return withMove(toProfile(row, { ...relations, followRequestedByMe }), row);
    },

    /**
     * The name of a person here by their id (the address of their ActivityPub actor, `/users/{id}`),
     * or null: nobody, someone elsewhere, or a suspended account (whose actor is gone too).
     */
    async localNameOf(id: string): Promise<string | null> {
      const row = isUuid(id) ? await users.findUserById(id) : undefined;
      return row && row.domain === null && row.suspended_at === null ? row.username : null;
    },

    /** Whether the user named by id follows the viewer (the Mastodon client API's `followed_by`). */
    async followsViewer(viewer: AuthUser, id: string): Promise<boolean> {
      return isUuid(id) && users.isFollowing(id, viewer.id);
    },

    /** Hidden from the list: people the viewer blocks or is blocked by, and suspended users. */
    async follows(
      viewer: AuthUser,
      username: string,
      side: 'followers' | 'following',
      page: Page,
    ): Promise<(PersonResult & { followId: string })[]> {
      const { row } = await requireVisible(viewer, username);
      const rows = await users.listFollows(viewer.id, row.id, side, page.cursor, page.limit + 1);
      return rows.map((r) => ({ ...toPersonResult(r), followId: r.follow_id }));
    },

    /** People whose username starts with `q` (ignoring case; a leading `@` is dropped). */
    async search(viewer: AuthUser, q: string): Promise<PersonResult[]> {
      if (isRemoteQuery(q)) {
        if (!lookUpRemote) return [];
        const found = await lookUpRemote(q);
        const row = found && (await users.findUserById(found.id));
        if (!row || row.suspended_at !== null) return [];
        const { relations } = await requireVisible(viewer, row.username).catch(() => ({ relations: null }));
        if (!relations) return [];
        return [toPersonResult({ ...row, followed_by_me: relations.followedByMe })];
      }
      const prefix = usernameKey(q.startsWith('@') ? q.slice(1) : q);
      if (prefix.length === 0) throw new InvalidError('Type at least one character to search people', 'InvalidSearch');
      if (prefix.length > USERNAME_MAX || !USERNAME_PATTERN.test(prefix))
        throw new InvalidError(
          `A username has at most ${USERNAME_MAX} letters, digits, _ and . (nothing else)`,
          'InvalidSearch',
        );
      return (await users.searchUsers(viewer.id, prefix)).map(toPersonResult);
    },

    /**
     * Whom `@q` may mention (the composer's and comment field's suggestions): people the viewer
     * follows first, then the others search finds; never the viewer, nor anyone hidden either way.
     */
    async suggest(viewer: AuthUser, q: string, limit: number): Promise<PersonResult[]> {
      const typed = q.startsWith('@') ? q.slice(1) : q;
      if (typed.length === 0) throw new InvalidError('Type at least one character to search people', 'InvalidSearch');
      if (typed.length > SUGGEST_QUERY_MAX || !SUGGEST_QUERY.test(typed))
        throw new InvalidError(
          `Type the start of a username: at most ${SUGGEST_QUERY_MAX} letters, digits, _ . - and one @ before a server's name`,
          'InvalidSearch',
        );
      const { followed, everyone } = await users.suggestUsers(viewer.id, typed.toLowerCase());
      const rows = [
        ...followed.map((r) => ({ ...r, followed_by_me: true })),
        ...everyone.map((r) => ({ ...r, followed_by_me: Boolean(r.followed_by_me) })),
      ];
      const seen = new Set<string>([viewer.id]);
      const people: PersonResult[] = [];
      for (const r of rows) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        people.push(toPersonResult(r));
      }
      return people.slice(0, limit);
    },

    /**
     * Follows, or asks to when they approve followers (issue 70): `followRequestedByMe` says which.
     * `activityUri`: the `Follow` of a requester elsewhere, answered once the request is.
     */
    async follow(viewer: AuthUser, username: string, { activityUri }: { activityUri?: string } = {}): Promise<Profile> {
      const { row: target, relations } = await requireVisible(viewer, username);
      if (target.id === viewer.id) throw new InvalidError('You cannot follow yourself', 'CannotFollowSelf');
      if (relations.blockedByMe)
        throw new ConflictError(`Unblock @${target.username} before following them`, 'UserBlocked');
      if (Number(target.approve_followers) === 1 && !(await users.isFollowing(viewer.id, target.id))) {
        await requests.request(viewer.id, target.id, activityUri ?? null);
        return toProfile(target, { ...relations, followedByMe: false, followRequestedByMe: true });
      }
      const followed = await data.transaction(async (trx) => {
        const added = await trx.users.insertFollow({
          id: newId(),
          follower_id: viewer.id,
          followee_id: target.id,
          created_at: nowIso(),
        });
        if (!added) return null; // already following: nothing changes
        await trx.users.addToFollowCounters(viewer.id, target.id, 1);
        return { notified: await notify(trx.notifications, { type: 'follow', userId: target.id, actorId: viewer.id }) };
      });
      if (followed) {
        const { notified } = followed;
        publish({
          type: 'Followed',
          followerId: viewer.id,
          followeeId: target.id,
          notifications: notified ? [notified] : [],
        });
      }
      return toProfile((await users.findUserById(target.id))!, { ...relations, followedByMe: true });
    },

    /** Unfollows, or withdraws a waiting request (issue 70). */
    async unfollow(viewer: AuthUser, username: string): Promise<Profile> {
      const { row: target, relations } = await requireVisible(viewer, username);
      if (await users.findFollowRequest(viewer.id, target.id)) {
        await requests.drop(viewer.id, target.id, 'follower').catch(() => undefined); // answered meanwhile
        return toProfile((await users.findUserById(target.id))!, {
          ...relations,
          followedByMe: await users.isFollowing(viewer.id, target.id),
        });
      }
      const unfollowed = await data.transaction(async (trx) => {
        if (!(await trx.users.deleteFollow(viewer.id, target.id))) return null; // not following: nothing changes
        await trx.users.addToFollowCounters(viewer.id, target.id, -1);
        // As with a like taken back: an unfollow takes its notification back while unread.
        const withdrawn = { userId: target.id, type: 'follow', actorId: viewer.id, subjectId: '' } as const;
        return { unreadFell: await withdrawUnread(trx.notifications, withdrawn) };
      });
      if (unfollowed) {
        const { unreadFell } = unfollowed;
        const notifications = unreadFell ? [unreadFell] : [];
        publish({ type: 'Unfollowed', followerId: viewer.id, followeeId: target.id, notifications });
      }
      return toProfile((await users.findUserById(target.id))!, { ...relations, followedByMe: false });
    },

    /** The people waiting for the viewer's answer, their count, and the answers (`followRequests.ts`). */
    followRequests: {
      list: requests.list,
      count: requests.count,
      isRequested: requests.isRequested,
      /** The viewer approves the request of the person named by id (their own requests only). */
      async approve(viewer: AuthUser, followerId: string): Promise<void> {
        if (!isUuid(followerId)) throw userNotFound();
        await requests.approve(viewer, followerId);
      },
      async reject(viewer: AuthUser, followerId: string): Promise<void> {
        if (!isUuid(followerId)) throw userNotFound();
        await requests.reject(viewer, followerId);
      },
      /** Someone elsewhere accepted a local person's request (federation's `Accept`). */
      accepted: requests.accepted,
      /** Someone elsewhere rejected a local person's request (federation's `Reject`): it ends. */
      async rejectedElsewhere(followerId: string, followeeId: string): Promise<boolean> {
        return requests.drop(followerId, followeeId, 'followee').then(
          () => true,
          () => false,
        );
      },
    },

    /** The viewer removes the follower named by id, without blocking them (issue 70). */
    async removeFollower(viewer: AuthUser, followerId: string): Promise<void> {
      if (!isUuid(followerId)) throw userNotFound();
      await requests.removeFollower(viewer, followerId);
    },

    /** The same by the follower's username (the web's followers list). */
    async removeFollowerNamed(viewer: AuthUser, username: string): Promise<void> {
      const row = await users.findUserByUsername(username);
      if (!row) throw userNotFound();
      await requests.removeFollower(viewer, row.id);
    },

    async updateAccount(viewer: AuthUser, input: AccountInput): Promise<User> {
      const row = await me(viewer);
      checkOwnEmail(row, input.email);
      await checkPassword(row, str(input.password));

      const changes: UserUpdate = {};
      const raw = str(input.username);
      const username = raw === undefined ? undefined : normalizeUsername(raw);
      if (username !== undefined && username !== row.username) {
        const error = usernameError(username);
        if (error) throw new InvalidError(error);
        const owner = await users.findUserByUsername(username);
        if (owner && owner.id !== row.id) throw new ConflictError('Username is already taken', 'UsernameTaken');
        if (usernameKey(username) !== row.username_lower && (await users.isUsernameRetired(username, nowIso())))
          throw new ConflictError(SECURITY_TEXTS.usernameRetired, 'UsernameRetired');
        changes.username = username;
        changes.username_lower = usernameKey(username);
      }
      const requested = str(input.newEmail)?.trim().toLowerCase();
      let newEmail: string | undefined;
      if (requested !== undefined && requested !== '' && requested !== row.email) {
        const error = emailError(requested);
        if (error) throw new InvalidError(error);
        if (await users.findUserByEmail(requested))
          throw new ConflictError('Email is already registered', 'EmailTaken');
        // `email` changes only once the link mailed to the new address is opened.
        newEmail = requested;
      } else if (requested === row.email && row.pending_email) {
        changes.pending_email = null; // back to the current address: the pending link stops working
      }
      const newPassword = str(input.newPassword);
      if (newPassword !== undefined && newPassword !== '') {
        const error = passwordError(newPassword, 'New password');
        if (error) throw new InvalidError(error);
        changes.password_hash = await hashPassword(newPassword);
      }
      const updated = await save(row.id, changes, newEmail);
      // A new password signs out every other device.
      if (changes.password_hash) await auth.revokeOtherSessions(row.id, viewer.sessionId);
      if (changes.username) publish({ type: 'UserRenamed', userId: row.id });
      return toUser(updated);
    },

    async updateProfile(viewer: AuthUser, input: ProfileInput): Promise<User> {
      const row = await me(viewer);
      checkOwnEmail(row, input.email);
      const changes: UserUpdate = {};
      const avatar = await ownImage(viewer, 'avatar', input.avatar);
      if (avatar !== undefined) changes.avatar = avatar;
      const banner = await ownImage(viewer, 'banner', input.banner);
      if (banner !== undefined) changes.banner = banner;
      if (input.description !== undefined) {
        const description = typeof input.description === 'string' ? input.description.trim() : '';
        const error = descriptionError(description);
        if (error) throw new InvalidError(error);
        changes.description = description;
      }
      const displayName = readDisplayName(input.displayName);
      if (displayName !== undefined && displayName !== row.display_name) changes.display_name = displayName;
      if (input.fields !== undefined) {
        const fields = storedFields(readFieldsInput(input.fields), toUser(row).fields);
        if (fields !== row.profile_fields) changes.profile_fields = fields;
      }
      if (input.defaultAudience !== undefined) {
        if (!isAudience(input.defaultAudience)) throw new InvalidError(AUDIENCE_ERROR, 'InvalidAudience');
        if (input.defaultAudience !== row.default_audience) changes.default_audience = input.defaultAudience;
      }
      if (input.language !== undefined) {
        if (input.language !== null && !isLanguage(input.language))
          throw new InvalidError(`language must be one of ${LANGUAGES.join(', ')}, or null`, 'InvalidLanguage');
        if (input.language !== row.language) changes.language = input.language;
      }
      if (input.approveFollowers !== undefined && typeof input.approveFollowers !== 'boolean')
        throw new InvalidError('approveFollowers must be true or false', 'InvalidApproveFollowers');
      if (typeof input.approveFollowers === 'boolean') await requests.setApproval(row.id, input.approveFollowers);
      if (input.discoverable !== undefined && typeof input.discoverable !== 'boolean')
        throw new InvalidError('discoverable must be true or false', 'InvalidDiscoverable');
      const discoverable = input.discoverable === undefined ? undefined : input.discoverable ? 1 : 0;
      if (discoverable !== undefined && discoverable !== Number(row.discoverable)) changes.discoverable = discoverable;
      const saved = await save(row.id, changes);
      if (Object.keys(changes).length > 0)
        publish({
          type: 'UserProfileChanged',
          userId: row.id,
          avatarChanged: changes.avatar !== undefined,
          nameChanged: changes.display_name !== undefined,
        });
      // Their posts join or leave the trends, and they the suggestions.
      if (changes.discoverable !== undefined) publish({ type: 'TrendsChanged' });
      if (changes.profile_fields) verifyLinks?.(row.id);
      return toUser(saved);
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
