/**
 * What this instance does with activities sent to its inboxes (issue 32, item 4). Fedify has
 * checked the signature (401 otherwise), that the activity's actor owns the signing key, and that
 * the activity id was not processed before. The actor is kept as a person here
 * (`remotePeople.ts`), and acts through the same services as a signed-in person: what a block
 * hides from them (a post, a person) refuses their like, comment or follow, and nothing is kept.
 * - `Follow` of a local person: kept (a `follows` row and the inbox to deliver to), `Accept`ed
 *   at once; `Reject`ed when that person blocks them. `Undo(Follow)` ends it. Of a person who
 *   approves followers (issue 70): a request, answered `Accept` or `Reject` when they answer it
 *   (`deliveries.ts`).
 * - `Accept(Follow)`: a local person's request to someone elsewhere who approves followers becomes
 *   a follow (any other follow counts from the start); `Reject(Follow)`: the follow or request ends.
 * - `Create(Note)`: a reply to a post kept here becomes a comment; a post with an image from
 *   someone people here follow becomes a post (`remoteContent.ts`). `Update(Note)`, `Delete`.
 * - `Delete` of the actor itself: a person whose account is gone elsewhere is removed here, once
 *   their address answers 410 (`deletedActors.ts`; a 404 is not taken as gone); also when the signature cannot be verified
 *   (their key went with them), the one unverified activity answered 202 rather than 401.
 * - `Like` / `Undo(Like)` of a post here: counted and notified.
 * - `Move` of the actor itself (issue 76): when the target's actor, fetched now, names the old one
 *   in `alsoKnownAs`, the people here who follow the old account follow the target instead, and the
 *   old account shows `movedTo`; otherwise ignored (`moving/service.ts`).
 * - `Announce` and anything else: answered 202 and ignored.
 */
import type { Context, Federation, UnverifiedActivityReason } from '@fedify/fedify';
import { Accept, Create, Delete, Follow, Like, Move, Note, Reject, Undo, Update, isActor } from '@fedify/vocab';
import type { Activity, Object as APObject } from '@fedify/vocab';
import { isDatabaseUnreachable } from '../db/errors';
import type { UsersService } from '../users/service';
import type { AccountMoves } from '../moving/service';
import { type DeletedActors, deletesItself } from './deletedActors';
import { newId, nowIso } from '../domain/ids';
import { type LocalServices, type RemoteContent, asAuthUser } from './remoteContent';
import type { RemotePeople } from './remotePeople';
import type { RemotePersonRow, RemoteRepository } from './remoteRepository';
import type { FederationRepository } from './repository';
import { type InboxListener, listener } from './signedInbox';

export interface InboxDeps {
  data: Pick<FederationRepository, 'addRemoteFollower' | 'removeRemoteFollower' | 'followedThrough'>;
  repo: RemoteRepository;
  people: RemotePeople;
  content: RemoteContent;
  deleted: DeletedActors;
  services: () => LocalServices & {
    users: Pick<UsersService, 'follow' | 'unfollow' | 'followRequests'>;
    moves: Pick<AccountMoves, 'movedElsewhere'>;
  };
  /** The local person with this actor identifier, if they may be followed (exists, not suspended). */
  isLocalPerson: (identifier: string) => Promise<boolean>;
  onError: (error: unknown, what: string) => void;
}

/** A refusal from a service (hidden, gone, invalid) drops the activity; anything else is logged. */
const isRefusal = (error: unknown) =>
  error instanceof Error && /NotFound|Forbidden|Invalid|Conflict/.test(error.constructor.name);

/**
 * The activity's object, fetched when only its id was sent, or null when it cannot be had: a 404
 * or 410 there, an id that is not a URL, a shape the vocabulary cannot read (issue 68, item 36).
 * That is the sender's problem, not this server's: the activity is dropped and answered 202, where
 * the throw answered 500 and invited the sender to retry it for days. A database that does not
 * answer (the document cache) still fails the activity, so that it is sent again.
 */
async function objectOf(
  activity: Activity,
  ctx: Context<void>,
  options: Parameters<Activity['getObject']>[0] = ctx,
): Promise<APObject | null> {
  return orNull(activity.getObject(options));
}

/** `read`'s value, or null when it failed on the remote side (see `objectOf`). */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (isDatabaseUnreachable(error)) throw error;
    return null;
  }
}

/** Registers the listeners with Fedify and returns them, for the short path (`signedInbox.ts`) too. */
export function listenToInboxes(federation: Federation<void>, deps: InboxDeps): InboxListener[] {
  const { data, repo, people, content, services } = deps;

  /** The activity's actor as a person kept here (fetched the first time). */
  async function actorOf(ctx: Context<void>, activity: Activity): Promise<RemotePersonRow | null> {
    if (!activity.actorId) return null;
    const person = await people.byActorUri(ctx, activity.actorId.href);
    return person && person.suspended_at === null ? person : null;
  }

  /** Runs a service call for someone elsewhere; a refusal means the activity is dropped. */
  async function attempt(what: string, work: () => Promise<unknown>): Promise<boolean> {
    try {
      await work();
      return true;
    } catch (error) {
      if (!isRefusal(error)) deps.onError(error, what);
      return false;
    }
  }

  const listeners: InboxListener[] = [
    listener(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId || !follow.objectId) return;
      const target = ctx.parseUri(follow.objectId);
      if (target?.type !== 'actor' || !(await deps.isLocalPerson(target.identifier))) return;
      const follower = await orNull(follow.getActor(ctx));
      if (!follower?.id || !follower.inboxId || follower.id.href !== follow.actorId.href) return;
      const person = await people.byActorUri(ctx, follower.id.href, follower);
      const local = await repo.localPerson(target.identifier);
      if (!person || !local) return;
      const actor = ctx.getActorUri(target.identifier);
      // Hidden from them (the person blocks them): refused, and told so.
      let requested = false;
      const followed = await attempt('keeping a follow from elsewhere failed', async () => {
        const profile = await services().users.follow(asAuthUser(person), local.username, {
          activityUri: follow.id!.href,
        });
        requested = profile.followRequestedByMe;
      });
      // They approve followers: the answer waits for theirs (`deliveries.ts` sends it).
      if (requested) return;
      if (!followed) {
        await ctx.sendActivity(
          { identifier: target.identifier },
          follower,
          new Reject({ id: new URL(`${actor.href}#rejects/${newId()}`), actor, object: follow }),
        );
        return;
      }
      await data.addRemoteFollower({
        id: newId(),
        user_id: target.identifier,
        actor_uri: follower.id.href,
        inbox_uri: follower.inboxId.href,
        shared_inbox_uri: follower.endpoints?.sharedInbox?.href ?? null,
        follow_id: follow.id.href,
        created_at: nowIso(),
      });
      await ctx.sendActivity(
        { identifier: target.identifier },
        follower,
        new Accept({ id: new URL(`${actor.href}#accepts/${newId()}`), actor, object: follow }),
      );
    }),
    listener(Undo, async (ctx, undo) => {
      async function endFollow(identifier: string, actorUri: string) {
        await data.removeRemoteFollower(identifier, actorUri);
        const person = await repo.personWithActorUri(actorUri);
        const local = await repo.localPerson(identifier);
        if (person && local)
          await attempt('ending a follow from elsewhere failed', () =>
            services().users.unfollow(asAuthUser(person), local.username),
          );
      }
      // A Follow kept here, named by its id: read from here, not fetched. Some servers send the
      // Follow by its id alone, and serve it only to signed requests of those it was addressed to
      // (activitypub.bot: docs/federation.md).
      const kept =
        undo.actorId && undo.objectId ? await data.followedThrough(undo.objectId.href, undo.actorId.href) : null;
      if (kept) return endFollow(kept, undo.actorId!.href);
      const object = await objectOf(undo, ctx);
      if (!(object instanceof Follow || object instanceof Like)) return;
      if (!undo.actorId || object.actorId?.href !== undo.actorId.href) return;
      if (object instanceof Follow) {
        const target = object.objectId ? ctx.parseUri(object.objectId) : null;
        if (target?.type !== 'actor') return;
        return endFollow(target.identifier, undo.actorId.href);
      }
      if (object.objectId) {
        const person = await repo.personWithActorUri(undo.actorId.href);
        const postId = person ? await content.repliedPost(ctx, object.objectId) : null;
        if (person && postId && (await repo.likes(postId, person.id)))
          await attempt('taking back a like from elsewhere failed', () =>
            services().posts.react(asAuthUser(person), postId, 'like'),
          );
      }
    }),
    listener(Accept, async (ctx, accept) => {
      // A follow of someone elsewhere counts from the start (docs/api-decisions.md), unless they
      // approve followers: then the request waits for this. The Follow is ours, read as Reject's is.
      const object = await objectOf(accept, ctx, {
        documentLoader: ctx.documentLoader,
        contextLoader: ctx.contextLoader,
        crossOrigin: 'trust',
      });
      if (!(object instanceof Follow) || !accept.actorId || object.objectId?.href !== accept.actorId.href) return;
      const follower = object.actorId ? ctx.parseUri(object.actorId) : null;
      const person = await repo.personWithActorUri(accept.actorId.href);
      const local = follower?.type === 'actor' ? await repo.localPerson(follower.identifier) : undefined;
      if (!person || !local) return;
      await attempt('keeping an accepted follow failed', () =>
        services().users.followRequests.accepted(local.id, person.id),
      );
    }),
    listener(Reject, async (ctx, reject) => {
      // The Follow is ours (its id is on this server): trusted as embedded, only its actor and object are read.
      const object = await objectOf(reject, ctx, {
        documentLoader: ctx.documentLoader,
        contextLoader: ctx.contextLoader,
        crossOrigin: 'trust',
      });
      if (!(object instanceof Follow) || !reject.actorId || object.objectId?.href !== reject.actorId.href) return;
      const follower = object.actorId ? ctx.parseUri(object.actorId) : null;
      const person = await repo.personWithActorUri(reject.actorId.href);
      const local = follower?.type === 'actor' ? await repo.localPerson(follower.identifier) : undefined;
      if (!person || !local) return;
      // A request that waited for them (issue 70) ends; else the follow does.
      if (await services().users.followRequests.rejectedElsewhere(local.id, person.id)) return;
      await attempt('ending a refused follow failed', () =>
        services().users.unfollow(
          { id: local.id, username: local.username, role: local.role, sessionId: '' },
          person.username,
        ),
      );
    }),
    listener(Create, async (ctx, create) => {
      const note = await objectOf(create, ctx);
      if (!(note instanceof Note)) return;
      const person = await actorOf(ctx, create);
      if (!person) return;
      // The activity as sent (Fedify keeps it): the image's focal point is read from it.
      const sent = await create.toJsonLd();
      await attempt('keeping a note from elsewhere failed', () => content.importNote(ctx, person, note, { sent }));
    }),
    listener(Update, async (ctx, update) => {
      const object = await objectOf(update, ctx);
      const person = await actorOf(ctx, update);
      if (!person) return;
      if (object instanceof Note)
        await attempt('updating a post from elsewhere failed', async () =>
          content.updateNote(ctx, person, object, await update.toJsonLd()),
        );
      // Their profile changed: kept as sent (the signature vouches for it).
      else if (isActor(object) && object.id?.href === person.actor_uri) await people.store(ctx, object);
    }),
    listener(Delete, async (_ctx, del) => {
      if (!del.objectId || !del.actorId) return;
      // Signed with a key still kept here: checked all the same (a failed fetch is tried again).
      if (deletesItself(del)) return void (await deps.deleted.removeIfGone(del.actorId.href));
      const person = await repo.personWithActorUri(del.actorId.href);
      if (!person) return;
      await attempt('deleting a post from elsewhere failed', () => content.deleteObject(person, del.objectId!));
    }),
    listener(Move, async (ctx, move) => {
      // Only an account moving itself; the target is checked by the service (its alsoKnownAs).
      if (!move.actorId || move.objectId?.href !== move.actorId.href || !move.targetId) return;
      const person = await actorOf(ctx, move);
      if (!person) return;
      await attempt('taking a move from elsewhere failed', () =>
        services().moves.movedElsewhere(person.id, move.targetId!.href),
      );
    }),
    listener(Like, async (ctx, like) => {
      if (!like.objectId) return;
      const person = await actorOf(ctx, like);
      const postId = person ? await content.repliedPost(ctx, like.objectId) : null;
      if (!person || !postId || (await repo.likes(postId, person.id))) return;
      await attempt('keeping a like from elsewhere failed', () =>
        services().posts.react(asAuthUser(person), postId, 'like'),
      );
    }),
  ];
  const setters = federation.setInboxListeners('/users/{identifier}/inbox', '/inbox');
  for (const { type, handle } of listeners) setters.on(type as typeof Activity, handle);
  setters.onUnverifiedActivity(async (_ctx, activity, reason) => {
    if (!(activity instanceof Delete) || !deletesItself(activity) || !keyUnreachable(activity.actorId!, reason)) return;
    try {
      if (await deps.deleted.removeIfGone(activity.actorId!.href)) return new Response(null, { status: 202 });
    } catch (error) {
      deps.onError(error, 'checking a deleted actor elsewhere failed');
    }
    // Anything else: Fedify's 401.
  });
  return listeners;
}

/** The signature failed only because the actor's own key could not be fetched (gone with the account). */
function keyUnreachable(actor: URL, reason: UnverifiedActivityReason): boolean {
  return reason.type === 'keyFetchError' && reason.keyId.origin === actor.origin;
}
