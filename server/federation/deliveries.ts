/**
 * Outgoing activities (issue 32, item 3, the part built so far), driven by the domain events this
 * process publishes once a write is committed (`events/`): a new post or comment is a `Create` to
 * its author's followers elsewhere, an edited post an `Update`, a deleted post or comment a
 * `Delete`, a renamed person or a changed profile an `Update` of the `Person`. Fedify
 * puts each delivery in the queue (`messageQueue.ts`), signs it and retries it with backoff; the
 * request that made the change never waits for it. Reactions are not sent yet; dislikes never are
 * (no other server has them).
 */
import type { Context } from '@fedify/fedify';
import { Create, Delete, Note, Tombstone, Update } from '@fedify/vocab';
import type { Recipient } from '@fedify/vocab';
import type { DomainEvent } from '../events/events';
import { newId } from '../domain/ids';
import type { PostsFederation } from './federation';
import { attachmentsAsArrays, commentPath } from './objects';

/** Writes the activity with `attachment` always an array, also when Fedify serializes it for delivery. */
function arrayAttachments<T extends Create | Update>(Kind: new (values: ConstructorParameters<typeof Create>[0]) => T) {
  return class extends (Kind as unknown as typeof Create) {
    override async toJsonLd(options?: Parameters<Create['toJsonLd']>[0]): Promise<unknown> {
      const json = await super.toJsonLd(options);
      return options?.format === 'expand' ? json : attachmentsAsArrays(json);
    }
  } as unknown as new (values: ConstructorParameters<typeof Create>[0]) => T;
}
const CreateWithArrays = arrayAttachments(Create);
const UpdateWithArrays = arrayAttachments(Update);

export function deliverOnEvents(
  subscribeOwn: (listener: (event: DomainEvent) => void) => () => void,
  fed: PostsFederation,
  onError: (error: unknown) => void,
): () => void {
  const ctx = (): Context<void> => fed.federation.createContext(new URL(fed.site.url), undefined);

  async function recipientsOf(userId: string): Promise<Recipient[]> {
    const rows = await fed.data.remoteFollowersOf(userId);
    return rows.map((row) => ({
      id: new URL(row.actor_uri),
      inboxId: new URL(row.inbox_uri),
      endpoints: row.shared_inbox_uri ? { sharedInbox: new URL(row.shared_inbox_uri) } : null,
    }));
  }

  async function send(authorId: string, activity: Create | Update | Delete): Promise<void> {
    const recipients = await recipientsOf(authorId);
    if (recipients.length === 0) return;
    await ctx().sendActivity({ identifier: authorId }, recipients, activity, { preferSharedInbox: true });
  }

  async function noteActivity(kind: 'create' | 'update', authorId: string, note: Note | null): Promise<void> {
    if (!note?.id) return;
    const actor = ctx().getActorUri(authorId);
    const values = { actor, object: note, tos: note.toIds, ccs: note.ccIds };
    await send(
      authorId,
      kind === 'create'
        ? new CreateWithArrays({ id: new URL(`${note.id.href}#create`), ...values })
        : new UpdateWithArrays({ id: new URL(`${note.id.href}#updates/${newId()}`), ...values }),
    );
  }

  async function handle(event: DomainEvent): Promise<void> {
    switch (event.type) {
      case 'PostCreated':
        return noteActivity('create', event.creatorId, await fed.postNoteOf(event.postId));
      case 'PostEdited': {
        const note = await fed.postNoteOf(event.postId);
        const author = note?.attributionId ? ctx().parseUri(note.attributionId) : null;
        if (author?.type === 'actor') await noteActivity('update', author.identifier, note);
        return;
      }
      case 'PostDeleted': {
        const c = ctx();
        const id = c.getObjectUri(Note, { id: event.postId });
        const actor = c.getActorUri(event.creatorId);
        return send(
          event.creatorId,
          new Delete({ id: new URL(`${id.href}#delete`), actor, object: new Tombstone({ id }) }),
        );
      }
      case 'CommentAdded':
        return noteActivity('create', event.creatorId, await fed.commentNoteOf(event.commentId));
      case 'CommentDeleted': {
        const id = new URL(commentPath(event.commentId), fed.site.url);
        const actor = ctx().getActorUri(event.creatorId);
        return send(
          event.creatorId,
          new Delete({ id: new URL(`${id.href}#delete`), actor, object: new Tombstone({ id }) }),
        );
      }
      case 'UserRenamed':
      case 'UserProfileChanged': {
        const person = await fed.personOf(event.userId);
        if (!person?.id) return;
        return send(
          event.userId,
          new Update({ id: new URL(`${person.id.href}#updates/${newId()}`), actor: person.id, object: person }),
        );
      }
      default:
        return;
    }
  }

  // On a later turn of the event loop: on SQLite the queries run synchronously, and reading 10,000
  // followers must not lengthen the answer to the request that published the event.
  return subscribeOwn((event) => {
    setImmediate(() => handle(event).catch(onError));
  });
}
