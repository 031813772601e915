/**
 * People elsewhere whose accounts were deleted (issue 32): their server sends `Delete(Person)`,
 * usually signed with a key that can no longer be fetched (the actor answers 410), so Fedify cannot
 * verify it. Such a Delete is taken only when the actor itself deletes itself and its address,
 * fetched here through the outgoing guard, answers 410 Gone: the body's word alone removes no one.
 * A 404 is not enough (issue 68, item 37): it is also what a misrouted proxy, a moved or half
 * restored server answers, and the removal cannot be undone; Mastodon, too, takes 410 as gone.
 * The person then goes through the account deletion (rows, counters, `AccountDeleted`, files).
 */
import type { AccountDeletion } from '../users/deletion';
import { guardedFetch } from '../outgoing/outgoingGuard';
import type { RemoteRepository } from './remoteRepository';
import type { FederationRepository } from './repository';

export type ActorState = 'gone' | 'there';

/**
 * What the actor's address answers now: 410 is `gone`; any other answer (404 included) `there`. A
 * fetch that fails (refused address, timeout) throws: nothing is decided on it.
 */
export async function actorState(uri: string, allowPrivateAddress: boolean): Promise<ActorState> {
  const { status } = await guardedFetch(uri, {
    allowPrivateAddress,
    accept: 'application/activity+json, application/ld+json',
    // The status is all that is read.
    maxBytes: 64 * 1024,
  });
  return status === 410 ? 'gone' : 'there';
}

/** A `Delete` whose object is its own actor: an account deleting itself. */
export const deletesItself = (activity: { actorId: URL | null; objectId: URL | null }) =>
  activity.actorId !== null && activity.objectId !== null && activity.actorId.href === activity.objectId.href;

export interface DeletedActorsDeps {
  repo: Pick<RemoteRepository, 'personWithActorUri'>;
  data: Pick<FederationRepository, 'forgetFollowerElsewhere'>;
  deletion: () => Pick<AccountDeletion, 'removeElsewhere'>;
  allowPrivateAddress: boolean;
}

export function deletedActors({ repo, data, deletion, allowPrivateAddress }: DeletedActorsDeps) {
  return {
    /**
     * Removes the person with that actor address if it answers gone. True when it is gone (removed
     * here, or never kept), false when it still answers; a failed fetch throws.
     */
    async removeIfGone(actorUri: string): Promise<boolean> {
      if ((await actorState(actorUri, allowPrivateAddress)) !== 'gone') return false;
      await data.forgetFollowerElsewhere(actorUri);
      const person = await repo.personWithActorUri(actorUri);
      if (person) await deletion().removeElsewhere(person.id);
      return true;
    },
  };
}

export type DeletedActors = ReturnType<typeof deletedActors>;
