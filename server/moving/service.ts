/**
 * Moving an account, as Mastodon does (issue 76, items 3 and 4). The new account names the old one
 * among its aliases (`alsoKnownAs`); the old one then moves: it records `movedTo`, its followers here
 * follow the new account instead, and its followers elsewhere are sent a `Move` to do the same. A
 * `Move` from elsewhere does the same for the people here who follow the old account, once the
 * target's actor, fetched now, names the old one. A moved account takes no new posts (`assertMayPost`,
 * the one place that rule lives).
 */
import { handleOf } from '../../lib/handles';
import { usernameKey } from '../../lib/validation';
import { ACCOUNT_ADDRESS_MAX, ACCOUNT_ALIASES_MAX } from '../../lib/limits';
import type { AccountAlias, MovedTo } from '../../lib/types';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError, UnavailableError } from '../domain/errors';
import { isUuid, nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import type { AuthorCache } from '../users/authorCache';
import type { UsersService } from '../users/service';
import { aliasesIn } from './aliases';
import type { MovingPerson, MovingRepository } from './repository';

/** What moving needs of federation (absent when it is off: only accounts here can be named). */
export interface RemoteMoves {
  /** `name@host` or an actor's address elsewhere: the person, looked up now and kept here; null: not found. */
  lookUp(query: string): Promise<{ id: string } | null>;
  /** The `alsoKnownAs` of the actor at that address, fetched now (not a kept copy); null: not reachable. */
  aliasesOf(actorUri: string): Promise<string[] | null>;
  /** Queues `Move` (actor and object the old account, target the new one) to its followers elsewhere. */
  sendMove(oldId: string, targetUri: string): Promise<void>;
}

export interface AccountMovesDeps {
  repo: MovingRepository;
  /** People as kept in memory (`users/authorCache.ts`): whether one moved, without a statement. */
  people: Pick<AuthorCache, 'person'>;
  users: Pick<UsersService, 'follow' | 'unfollow'>;
  publish: PublishEvent;
  /** Where this instance's actors are: `{origin}/users/{id}`. */
  origin: string;
  remote: RemoteMoves | null;
  onError: (error: unknown, what: string) => void;
}

export function accountMoves({ repo, people, users, publish, origin, remote, onError }: AccountMovesDeps) {
  const ownHost = new URL(origin).host.toLowerCase();
  const actorUriOf = (person: Pick<MovingPerson, 'id' | 'actor_uri'>) =>
    person.actor_uri ?? new URL(`/users/${person.id}`, origin).href;

  /** This instance's person at an actor address (`{origin}/users/{id}`), if it is one. */
  function localIdAt(uri: string): string | null {
    const url = URL.canParse(uri) ? new URL(uri) : null;
    if (!url || url.origin !== new URL(origin).origin) return null;
    const id = /^\/users\/([^/]+)$/.exec(url.pathname)?.[1];
    return id && isUuid(id) ? id : null;
  }

  /** The account an address names: `name` or `name@host` here, else looked up elsewhere. */
  async function accountAt(address: unknown): Promise<MovingPerson> {
    const text = typeof address === 'string' ? address.trim().replace(/^@/, '') : '';
    if (!text)
      throw new InvalidError('Type an account address: name@server, or its address (https://…)', 'InvalidAddress');
    if (text.length > ACCOUNT_ADDRESS_MAX)
      throw new InvalidError(`An account address has at most ${ACCOUNT_ADDRESS_MAX} characters`, 'InvalidAddress');
    const handle = handleOf(text);
    const localId = localIdAt(text);
    let found: MovingPerson | undefined;
    if (localId) found = await repo.personById(localId);
    else if (handle?.host === ownHost) found = await repo.localPersonNamed(handle.name);
    else if (!handle && !/^https?:\/\//i.test(text)) found = await repo.localPersonNamed(text);
    else {
      if (!remote)
        throw new InvalidError('Only accounts on this server can be named: federation is off here', 'FederationOff');
      const kept = await remote.lookUp(text);
      found = kept ? await repo.personById(kept.id) : undefined;
    }
    if (!found) throw new NotFoundError(`No account found at ${text}`, 'AccountNotFound');
    return found;
  }

  /** The aliases the account at `target` names now: from here for our people, fetched for others. */
  async function aliasesNamedBy(target: MovingPerson): Promise<string[]> {
    if (target.domain === null) return aliasesIn(target.also_known_as);
    const listed = remote && target.actor_uri ? await remote.aliasesOf(target.actor_uri) : null;
    if (!listed)
      throw new UnavailableError(
        `The server of @${target.username} did not answer; try again later`,
        'TargetUnreachable',
      );
    return listed;
  }

  async function me(viewer: AuthUser): Promise<MovingPerson> {
    const row = await repo.personById(viewer.id);
    if (!row || row.domain !== null)
      throw new ForbiddenError('Only a person of this server can move', 'NotYourAccount');
    return row;
  }

  /**
   * The people here who follow `old` follow `target` instead (a follow of someone elsewhere sends
   * their server a Follow). One who cannot (they block each other) keeps following `old`.
   */
  async function carryFollowers(old: MovingPerson, target: MovingPerson): Promise<number> {
    let moved = 0;
    for (const follower of await repo.localFollowersOf(old.id)) {
      if (follower.id === target.id) continue;
      const viewer: AuthUser = { id: follower.id, username: follower.username, role: follower.role, sessionId: '' };
      try {
        await users.follow(viewer, target.username);
        await users.unfollow(viewer, old.username);
        moved++;
      } catch (error) {
        onError(error, `moving a follower of @${old.username} to @${target.username} failed`);
      }
    }
    return moved;
  }

  /** Records the move; the caches forget the old account's profile, and its actor shows `movedTo`. */
  async function recordMove(old: MovingPerson, target: MovingPerson): Promise<boolean> {
    if (!(await repo.setMovedTo(old.id, target.id, nowIso()))) return false;
    publish({ type: 'UserProfileChanged', userId: old.id, avatarChanged: false });
    return true;
  }

  /** Each alias with the account's address (`name@host`) when it is known here; null: only its actor's. */
  async function described(uris: string[]): Promise<AccountAlias[]> {
    return Promise.all(
      uris.map(async (uri) => {
        const localId = localIdAt(uri);
        const person = localId ? await repo.personById(localId) : await repo.personWithActorUri(uri);
        const address = person ? (person.domain === null ? `${person.username}@${ownHost}` : person.username) : null;
        return { uri, address };
      }),
    );
  }

  return {
    /** The signed-in person's aliases. */
    async aliases(viewer: AuthUser): Promise<AccountAlias[]> {
      return described(aliasesIn((await me(viewer)).also_known_as));
    },

    /** Names another account as the person's own (needed before that account can move here). */
    async addAlias(viewer: AuthUser, address: unknown): Promise<AccountAlias[]> {
      const self = await me(viewer);
      const other = await accountAt(address);
      if (other.id === self.id) throw new InvalidError('An account cannot be its own alias', 'InvalidAlias');
      const uri = actorUriOf(other);
      const kept = aliasesIn(self.also_known_as);
      if (kept.includes(uri)) return described(kept);
      if (kept.length >= ACCOUNT_ALIASES_MAX)
        throw new InvalidError(`At most ${ACCOUNT_ALIASES_MAX} aliases: remove one first`, 'TooManyAliases');
      const next = [...kept, uri];
      await repo.setAliases(self.id, next, nowIso());
      // Their actor changed: the caches forget it, and followers elsewhere are sent an Update.
      publish({ type: 'UserProfileChanged', userId: self.id, avatarChanged: false });
      return described(next);
    },

    async removeAlias(viewer: AuthUser, uri: unknown): Promise<AccountAlias[]> {
      const self = await me(viewer);
      const kept = aliasesIn(self.also_known_as);
      if (typeof uri !== 'string' || !kept.includes(uri)) throw new NotFoundError('No such alias', 'AliasNotFound');
      const next = kept.filter((one) => one !== uri);
      await repo.setAliases(self.id, next, nowIso());
      publish({ type: 'UserProfileChanged', userId: self.id, avatarChanged: false });
      return described(next);
    },

    /**
     * Moves the signed-in person's account to the one at `address`, which must name this one among
     * its aliases. Their followers here are carried over at once; those elsewhere are sent a `Move`.
     */
    async moveTo(viewer: AuthUser, address: unknown): Promise<MovedTo> {
      const self = await me(viewer);
      if (self.moved_to_id) throw new ConflictError('This account has moved already', 'AccountMoved');
      const target = await accountAt(address);
      if (target.id === self.id) throw new InvalidError('An account cannot move to itself', 'InvalidMove');
      if (target.moved_to_id) throw new InvalidError(`@${target.username} has moved itself`, 'TargetMoved');
      const selfUri = actorUriOf(self);
      if (!(await aliasesNamedBy(target)).includes(selfUri))
        throw new InvalidError(
          `@${target.username} does not name this account as an alias: add @${self.username}@${ownHost} to its aliases first (Settings, Move in and out, on that account)`,
          'AliasMissing',
        );
      if (!(await recordMove(self, target))) throw new ConflictError('This account has moved already', 'AccountMoved');
      await carryFollowers(self, target);
      await remote?.sendMove(self.id, actorUriOf(target));
      return { _id: target.id, username: target.username, displayName: target.display_name };
    },

    /**
     * A `Move` from elsewhere (its signature checked): the person kept here as `oldId` moved to
     * `targetUri`. Taken only when the target names them among its aliases; false when ignored.
     */
    async movedElsewhere(oldId: string, targetUri: string): Promise<boolean> {
      const old = await repo.personById(oldId);
      if (!remote || !old?.actor_uri || old.domain === null || old.moved_to_id || old.actor_uri === targetUri)
        return false;
      const localId = localIdAt(targetUri);
      const kept = localId ? null : await remote.lookUp(targetUri);
      const target = await repo.personById(localId ?? kept?.id ?? '');
      if (!target) return false;
      const named = target.domain === null ? aliasesIn(target.also_known_as) : await remote.aliasesOf(targetUri);
      if (!named?.includes(old.actor_uri)) return false;
      if (!(await recordMove(old, target))) return false;
      await carryFollowers(old, target);
      return true;
    },

    /**
     * Throws 403 when the account has moved: it takes no new posts. Asked at every new post: the
     * kept person answers (a move forgets it: `UserProfileChanged`), the database only for a name
     * not kept under that name (renamed since the session began).
     */
    async assertMayPost(user: Pick<AuthUser, 'id' | 'username'>): Promise<void> {
      const kept = await people.person(usernameKey(user.username));
      const movedToId = kept?.facts._id === user.id ? kept.movedToId : (await repo.personById(user.id))?.moved_to_id;
      if (!movedToId) return;
      const target = await repo.personById(movedToId);
      throw new ForbiddenError(
        `This account has moved${target ? ` to @${target.username}` : ''}: it takes no new posts`,
        'AccountMoved',
      );
    },
  };
}

export type AccountMoves = ReturnType<typeof accountMoves>;
