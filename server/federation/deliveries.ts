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
import { Accept, Block, Create, Delete, Follow, Like, Note, Reject, Tombstone, Undo, Update } from '@fedify/vocab';
import type { Activity, Recipient } from '@fedify/vocab';
import type { DomainEvent, EventOf } from '../events/events';
import { newId, nowIso } from '../domain/ids';
import type { PostsFederation } from './federation';
import { commentPath } from './objects';
import type { RemoteRepository } from './remoteRepository';

/** A post's origin as the deliveries read it, once per event. */
type PostOrigin = Awaited<ReturnType<RemoteRepository['postOrigin']>>;

/**
 * Writes the activity as served documents are (`attachment` always an array, images' `blurhash`),
 * also when Fedify serializes it for delivery.
 */
function finished<T extends Create | Update>(
  Kind: new (values: ConstructorParameters<typeof Create>[0]) => T,
  finishJson: (json: unknown) => Promise<unknown>,
) {
  return class extends (Kind as unknown as typeof Create) {
    override async toJsonLd(options?: Parameters<Create['toJsonLd']>[0]): Promise<unknown> {
      const json = await super.toJsonLd(options);
      return options?.format === 'expand' ? json : finishJson(json);
    }
  } as unknown as new (values: ConstructorParameters<typeof Create>[0]) => T;
}

export function deliverOnEvents(
  subscribeOwn: (listener: (event: DomainEvent) => void) => () => void,
  fed: PostsFederation,
  onError: (error: unknown) => void,
): () => void {
  const ctx = (): Context<void> => fed.federation.createContext(new URL(fed.site.url), undefined);
  const CreateWithArrays = finished(Create, fed.finishJson);
  const UpdateWithArrays = finished(Update, fed.finishJson);

  async function recipientsOf(userId: string): Promise<Recipient[]> {
    const rows = await fed.data.remoteFollowersOf(userId);
    return rows.map((row) => ({
      id: new URL(row.actor_uri),
      inboxId: new URL(row.inbox_uri),
      endpoints: row.shared_inbox_uri ? { sharedInbox: new URL(row.shared_inbox_uri) } : null,
    }));
  }

  /** A person kept here from elsewhere, as whom to deliver to; null for a local person. */
  async function remoteRecipient(userId: string): Promise<Recipient | null> {
    const person = await fed.remote.remotePersonById(userId);
    if (!person?.actor_uri || !person.inbox_uri) return null;
    return {
      id: new URL(person.actor_uri),
      inboxId: new URL(person.inbox_uri),
      endpoints: person.shared_inbox_uri ? { sharedInbox: new URL(person.shared_inbox_uri) } : null,
    };
  }

  /** Only this instance's people send: what people elsewhere did here is theirs to send. */
  const isLocal = async (userId: string) => (await fed.remote.localPerson(userId)) !== undefined;

  /**
   * To the author's followers elsewhere, and to `also` (a replied or mentioned person elsewhere).
   * The activity is made only once someone elsewhere is to hear of it: most people have no
   * followers elsewhere, and a post's Note costs reads and Fedify objects.
   */
  async function send(
    authorId: string,
    activity: Activity | (() => Promise<Activity | null>),
    also: Recipient[] = [],
    toFollowers = true,
  ): Promise<void> {
    const recipients = toFollowers ? [...(await recipientsOf(authorId))] : [];
    for (const one of also) if (!recipients.some((r) => r.id?.href === one.id?.href)) recipients.push(one);
    if (recipients.length === 0) return;
    const made = typeof activity === 'function' ? await activity() : activity;
    if (made) await ctx().sendActivity({ identifier: authorId }, recipients, made, { preferSharedInbox: true });
  }

  /** To one person elsewhere only (a follow, a like, a block). */
  async function sendTo(fromId: string, to: Recipient, activity: Activity): Promise<void> {
    await ctx().sendActivity({ identifier: fromId }, to, activity);
  }

  /** The people elsewhere a post or comment mentions: they hear of it too (`Mention` tags). */
  async function mentionedElsewhere(kind: 'post' | 'comment', id: string): Promise<Recipient[]> {
    const mentioned = (await fed.data.mentionedUsers(kind, id)).filter((user) => user.actor_uri);
    const recipients = await Promise.all(mentioned.map((user) => remoteRecipient(user.id)));
    return recipients.filter((r): r is Recipient => r !== null);
  }

  /** Who hears of a local comment beyond its author's followers: the author of a post from elsewhere, and those it mentions. */
  async function replyRecipients(post: PostOrigin | undefined, commentId?: string): Promise<Recipient[]> {
    const author = post?.uri ? await remoteRecipient(post.creator_id) : null;
    const mentioned = commentId ? await mentionedElsewhere('comment', commentId) : [];
    return [...(author ? [author] : []), ...mentioned];
  }

  /** `noteOf` answers null for a post or comment from elsewhere: never sent on. */
  async function noteActivity(
    kind: 'create' | 'update',
    authorId: string,
    noteOf: () => Promise<Note | null>,
    also: Recipient[] = [],
    toFollowers = true,
  ): Promise<void> {
    await send(
      authorId,
      async () => {
        const note = await noteOf();
        if (!note?.id) return null;
        const values = { actor: ctx().getActorUri(authorId), object: note, tos: note.toIds, ccs: note.ccIds };
        return kind === 'create'
          ? new CreateWithArrays({ id: new URL(`${note.id.href}#create`), ...values })
          : new UpdateWithArrays({ id: new URL(`${note.id.href}#updates/${newId()}`), ...values });
      },
      also,
      toFollowers,
    );
  }

  /**
   * Who hears of a post elsewhere, by its audience (issue 70; its Note's addressing says the same,
   * `objects.ts`): the author's followers unless it is for the people named, and the people named
   * unless it is for the followers alone.
   */
  async function postRecipients(postId: string): Promise<{ also: Recipient[]; toFollowers: boolean }> {
    const audience = (await fed.remote.postOrigin(postId))?.audience ?? 'public';
    return {
      also: audience === 'followers' ? [] : await mentionedElsewhere('post', postId),
      toFollowers: audience !== 'mentioned',
    };
  }

  /** A comment on a post for followers or the people named goes to the people it names and the post's author only. */
  async function commentRecipients(postId: string, commentId: string) {
    const post = await fed.remote.postOrigin(postId);
    const audience = post?.audience ?? 'public';
    const toFollowers = audience === 'public' || audience === 'unlisted';
    return { also: await replyRecipients(post, commentId), toFollowers };
  }

  /**
   * A local person's answer to someone elsewhere who follows them or asked to (issue 70): an
   * approved request is `Accept`ed (and they hear of the posts from then on), a rejected one and a
   * removed follower are sent `Reject` of their `Follow`, as Mastodon does.
   */
  async function answerElsewhere(
    event: EventOf<'Followed'> | EventOf<'FollowRequestDropped'> | EventOf<'Unfollowed'>,
  ): Promise<void> {
    const person = await fed.remote.remotePersonById(event.followerId);
    if (!person?.actor_uri || !person.inbox_uri || !(await isLocal(event.followeeId))) return;
    const to = await remoteRecipient(event.followerId);
    if (!to?.id) return;
    const actor = ctx().getActorUri(event.followeeId);
    let followId: string | null | undefined = null;
    if (event.type === 'Followed') {
      followId = event.approved?.activityUri;
      if (!followId) return;
      await fed.data.addRemoteFollower({
        id: newId(),
        user_id: event.followeeId,
        actor_uri: person.actor_uri,
        inbox_uri: person.inbox_uri,
        shared_inbox_uri: person.shared_inbox_uri,
        follow_id: followId,
        created_at: nowIso(),
      });
    } else if (event.type === 'FollowRequestDropped') followId = event.activityUri;
    else followId = await fed.data.takeRemoteFollower(event.followeeId, person.actor_uri);
    // The Follow as they sent it, named by its id (a follower kept before its id was, by a new one).
    const follow = new Follow({
      id: followId ? new URL(followId) : new URL(`${person.actor_uri}#follows/${newId()}`),
      actor: to.id,
      object: actor,
    });
    const values = {
      id: new URL(`${actor.href}#${event.type === 'Followed' ? 'accepts' : 'rejects'}/${newId()}`),
      actor,
      object: follow,
    };
    return sendTo(event.followeeId, to, event.type === 'Followed' ? new Accept(values) : new Reject(values));
  }

  /** A local person's follow, like or block of someone (or something) elsewhere, or its undoing. */
  async function towardsElsewhere(event: DomainEvent): Promise<void> {
    switch (event.type) {
      case 'FollowRequested':
      case 'FollowRequestDropped':
      case 'Followed':
      case 'Unfollowed': {
        // An approved request was sent as a Follow already; a rejected one is the other side's to send.
        if (event.type === 'Followed' && event.approved) return;
        if (event.type === 'FollowRequestDropped' && event.by === 'followee') return;
        const to = await remoteRecipient(event.followeeId);
        if (!to?.id || !(await isLocal(event.followerId))) return;
        const actor = ctx().getActorUri(event.followerId);
        // Ids are new each time: the other server takes each activity id once.
        const follow = new Follow({ id: new URL(`${actor.href}#follows/${newId()}`), actor, object: to.id });
        return sendTo(
          event.followerId,
          to,
          event.type === 'Followed' || event.type === 'FollowRequested'
            ? follow
            : new Undo({ id: new URL(`${actor.href}#undos/${newId()}`), actor, object: follow }),
        );
      }
      case 'PostReacted': {
        const post = await fed.remote.postOrigin(event.postId);
        if (!post?.uri || !(await isLocal(event.userId))) return;
        const to = await remoteRecipient(post.creator_id);
        if (!to) return;
        const actor = ctx().getActorUri(event.userId);
        const like = new Like({ id: new URL(`${actor.href}#likes/${newId()}`), actor, object: new URL(post.uri) });
        // Dislikes stay here: a like turned into a dislike, or taken back, is an Undo elsewhere.
        return sendTo(
          event.userId,
          to,
          event.reaction === 'like'
            ? like
            : new Undo({ id: new URL(`${actor.href}#undos/${newId()}`), actor, object: like }),
        );
      }
      case 'Blocked': {
        const to = await remoteRecipient(event.targetId);
        if (!to?.id || !(await isLocal(event.userId))) return;
        const actor = ctx().getActorUri(event.userId);
        return sendTo(
          event.userId,
          to,
          new Block({ id: new URL(`${actor.href}#blocks/${newId()}`), actor, object: to.id }),
        );
      }
      default:
        return;
    }
  }

  async function handle(event: DomainEvent): Promise<void> {
    switch (event.type) {
      case 'Followed':
      case 'Unfollowed':
      case 'FollowRequested':
      case 'FollowRequestDropped':
        await towardsElsewhere(event);
        if (event.type === 'FollowRequested') return;
        if (event.type === 'Unfollowed' && !event.byFollowee) return;
        if (event.type === 'FollowRequestDropped' && event.by !== 'followee') return;
        return answerElsewhere(event);
      case 'PostReacted':
      case 'Blocked':
        return towardsElsewhere(event);
      case 'PostCreated': {
        // Imported at its original date (issue 76): not sent as new; its Note is there to fetch.
        if (event.imported) return;
        const { also, toFollowers } = await postRecipients(event.postId);
        return noteActivity('create', event.creatorId, () => fed.postNoteOf(event.postId), also, toFollowers);
      }
      case 'PostEdited': {
        const note = await fed.postNoteOf(event.postId);
        const author = note?.attributionId ? ctx().parseUri(note.attributionId) : null;
        if (author?.type !== 'actor') return;
        const { also, toFollowers } = await postRecipients(event.postId);
        return noteActivity('update', author.identifier, async () => note, also, toFollowers);
      }
      case 'PostDeleted': {
        if (!(await isLocal(event.creatorId))) return;
        const c = ctx();
        const id = c.getObjectUri(Note, { id: event.postId });
        const actor = c.getActorUri(event.creatorId);
        return send(
          event.creatorId,
          new Delete({ id: new URL(`${id.href}#delete`), actor, object: new Tombstone({ id }) }),
        );
      }
      case 'CommentAdded': {
        const { also, toFollowers } = await commentRecipients(event.postId, event.commentId);
        return noteActivity('create', event.creatorId, () => fed.commentNoteOf(event.commentId), also, toFollowers);
      }
      case 'CommentDeleted': {
        if (!(await isLocal(event.creatorId))) return;
        const id = new URL(commentPath(event.commentId), fed.site.url);
        const actor = ctx().getActorUri(event.creatorId);
        return send(
          event.creatorId,
          new Delete({ id: new URL(`${id.href}#delete`), actor, object: new Tombstone({ id }) }),
          await replyRecipients(await fed.remote.postOrigin(event.postId)),
        );
      }
      case 'UserRenamed':
      case 'UserProfileChanged':
      case 'FollowApprovalChanged': {
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
