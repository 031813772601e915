/**
 * What this instance does with activities sent to its inboxes (issue 32, item 4, the part built so
 * far): a `Follow` of a local person is kept and accepted at once (`Accept` through the queue), an
 * `Undo(Follow)` ends it. Fedify has checked the signature (401 otherwise), that the activity's
 * actor owns the signing key, and that the activity id was not processed before; other activities
 * are answered 202 and ignored.
 */
import type { Federation } from '@fedify/fedify';
import { Accept, Follow, Undo } from '@fedify/vocab';
import { newId, nowIso } from '../domain/ids';
import type { FederationRepository } from './repository';

export function listenToInboxes(
  federation: Federation<void>,
  data: Pick<FederationRepository, 'addRemoteFollower' | 'removeRemoteFollower'>,
  /** The local person with this actor identifier, if they may be followed (exists, not suspended). */
  isLocalPerson: (identifier: string) => Promise<boolean>,
): void {
  federation
    .setInboxListeners('/users/{identifier}/inbox', '/inbox')
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId || !follow.objectId) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== 'actor' || !(await isLocalPerson(target.identifier))) return;
      const follower = await follow.getActor(ctx);
      if (!follower?.id || !follower.inboxId || follower.id.href !== follow.actorId.href) return;
      await data.addRemoteFollower({
        id: newId(),
        user_id: target.identifier,
        actor_uri: follower.id.href,
        inbox_uri: follower.inboxId.href,
        shared_inbox_uri: follower.endpoints?.sharedInbox?.href ?? null,
        follow_id: follow.id.href,
        created_at: nowIso(),
      });
      const actor = ctx.getActorUri(target.identifier);
      await ctx.sendActivity(
        { identifier: target.identifier },
        follower,
        new Accept({ id: new URL(`${actor.href}#accepts/${newId()}`), actor, object: follow }),
      );
    })
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      if (!(object instanceof Follow) || !undo.actorId || object.actorId?.href !== undo.actorId.href) return;
      const target = object.objectId ? ctx.parseUri(object.objectId) : null;
      if (target?.type !== 'actor') return;
      await data.removeRemoteFollower(target.identifier, undo.actorId.href);
    });
}
