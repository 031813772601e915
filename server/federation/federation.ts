/**
 * The Fedify federation of this instance (issue 32): who is an actor and at which URI, the posts
 * as objects, the collections, NodeInfo, and the queue deliveries wait in. Built
 * once per process in `context.ts` when federation is on; `http.ts` hands it the requests.
 *
 * URIs: a person is `/users/{id}` (the id never changes; a rename keeps every follow), their
 * profile page `/profile/{name}`; a post is `/post/{id}`, its page too; a comment `/comments/{id}`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Federation, type RequestContext, createExponentialBackoffPolicy, createFederation } from '@fedify/fedify';
import { usernameKey } from '../../lib/validation';
import type { DomainSeverity } from '../../lib/types';
import {
  type Actor,
  Collection,
  Create,
  Note,
  type Object as APObject,
  type Person,
  type Recipient,
  Tombstone,
  isActor,
} from '@fedify/vocab';
import type { UsersService } from '../users/service';
import type { AccountDeletion } from '../users/deletion';
import type { AccountMoves } from '../moving/service';
import type { MediaStorage } from '../media/storage';
import type { Db } from '../db/database';
import { isUuid } from '../domain/ids';
import type { Signer } from '../posts/reads';
import { listenToInboxes } from './inbox';
import { type SignedInbox, signedInbox } from './signedInbox';
import { type SignatureCheck, inboxSignatureCheck } from './inboxSignature';
import { deletedActors } from './deletedActors';
import { kyselyKvStore } from './kvStore';
import { memoizedKv } from './kvMemo';
import { kyselyMessageQueue } from './messageQueue';
import { type KeyPairsOf, userKeyPairs } from './keys';
import { POST_IMAGES_DEFAULT } from '../../lib/limits';
import { photosOfRow } from '../posts/mappers';
import { withImageExtras } from './noteImageExtras';
import {
  type PostImage,
  type Site,
  attachmentsAsArrays,
  commentNote,
  largestVariant,
  mediaTypeOf,
  personOf,
  postNote,
} from './objects';
import {
  FETCH_TIMEOUT_MS,
  guardDeliveries,
  guardedDocumentLoader,
  guardedLoaderFactories,
} from '../outgoing/outgoingGuard';
import type { CacheRegistry } from '../cache/registry';
import { type FederationRepository, type NotePostRow, federationRepository } from './repository';
import { tombstonesRepository } from '../users/tombstones';
import { type Farewell, farewellOf, sendFarewell } from './tombstones';
import { sendMove } from './moves';
import { type LocalServices, remoteContent } from './remoteContent';
import { remotePeople } from './remotePeople';
import type { PublishEvent } from '../events/domainEvents';
import { type RemotePersonRow, type RemoteRepository, remoteRepository } from './remoteRepository';
import { instantOf } from './temporal';

/** Items per page of the outbox and the follower lists. */
export const COLLECTION_PAGE = 20;
/** Posts fetched from a person's outbox when they are first looked up, and the items read for them. */
export const BACKFILL_POSTS = 20;
const BACKFILL_SCAN = 100;

const DAY_MS = 86_400_000;
/** Public keys of people elsewhere kept in memory (about 1 KB each), and for how long at most. */
const KEPT_KEYS = 10_000;
const KEPT_KEY_MS = 10 * 60_000;

/** What other servers see as this software (NodeInfo), and what Mastodon clients take it for. */
const SOFTWARE_VERSION = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }
).version;
export const MASTODON_UPSTREAM = { name: 'mastodon', version: '4.3.0' } as const;

export interface FederationOptions {
  db: Db;
  /** Where the Notes fetched from elsewhere are held, once per post row version (`cache/renderings.ts`). */
  caches: CacheRegistry;
  storage: MediaStorage;
  site: Site;
  instanceName: string;
  /** Fetch and deliver to private and loopback addresses (`FEDERATION_ALLOW_PRIVATE`): tests, local trials. */
  allowPrivateAddress: boolean;
  /** A server's domain block (`domainBlocks.ts`): suspended ones are refused and not delivered to. */
  severityOf?: (host: string) => Promise<DomainSeverity | null>;
  /** Tells the caches when a person from elsewhere changed their name or pictures. */
  publish?: PublishEvent;
  /** Deliveries run at once per process. */
  workers?: number;
  /** Photos a kept Note's post holds at most (`MAX_POST_IMAGES`, issue 71); 10 unless given. */
  maxImages?: number;
  /** The services people elsewhere act through (built after the federation: read when used). */
  services: () => LocalServices & {
    users: Pick<UsersService, 'follow' | 'unfollow' | 'followRequests'>;
    deletion: Pick<AccountDeletion, 'removeElsewhere'>;
    moves: Pick<AccountMoves, 'movedElsewhere'>;
  };
  onError?: (error: unknown, what: string) => void;
}

export interface PostsFederation {
  federation: Federation<void>;
  site: Site;
  data: FederationRepository;
  /** People, posts and comments from elsewhere kept here. */
  remote: RemoteRepository;
  keyPairsOf: KeyPairsOf;
  /**
   * A search's `@name@host` or address: the person looked up and kept (refreshed), or null. The
   * first time, their last posts with an image are fetched from their outbox (in the background).
   */
  lookUp(query: string): Promise<RemotePersonRow | null>;
  /** A post as its `Note`, or null when it is gone or hidden. */
  postNoteOf(id: string): Promise<Note | null>;
  /** A local person as their `Person`, or null when unknown or suspended. */
  personOf(userId: string): Promise<Person | null>;
  /**
   * A comment as its `Note`, or null when it is gone or hidden. `fetchedBy`: a fetch over HTTP,
   * answered only when its signer (or anyone, for a public or unlisted post) may see the post.
   */
  commentNoteOf(id: string, fetchedBy?: RequestContext<void>): Promise<Note | null>;
  /** A server's domain block, if any (the inbox refuses suspended ones). */
  severityOf(host: string): Promise<DomainSeverity | null>;
  /** The inbox's short path for activities signed with a key kept here (`signedInbox.ts`). */
  inbox: SignedInbox;
  /** Whether an inbox request goes on to Fedify: its HTTP signature verifies (`inboxSignature.ts`). */
  signatureHolds: SignatureCheck;
  /**
   * An actor or object elsewhere by URI or `@name@host`, through the guarded loaders (the
   * address check, a timeout, a size cap); null when not found, refused or not answered.
   */
  lookupObject(identifier: string): Promise<APObject | null>;
  /** Read before a local account is deleted: its followers elsewhere and keys (null: nobody to tell). */
  farewellOf(userId: string): Promise<Farewell | null>;
  /**
   * A document as it leaves (served or delivered): `attachment` always an array, post Notes'
   * images with their `blurhash`.
   */
  finishJson(json: unknown): Promise<unknown>;
  /** Queues `Delete(Person)` to them once the deletion is committed. */
  sendFarewell(farewell: Farewell): Promise<void>;
  /** The `alsoKnownAs` of the actor at that address, fetched now (no kept copy); null when it cannot be had. */
  aliasesOf(actorUri: string): Promise<string[] | null>;
  /** Queues `Move` (the local person to `targetUri`) to their followers elsewhere (issue 76). */
  sendMove(userId: string, targetUri: string): Promise<void>;
  /** What went wrong in this process since it started, for `/metrics`: failed delivery attempts, dropped tasks. */
  readonly failures: { deliveries: number; dropped: number; refused: number };
  /** Starts this process's queue workers. */
  start(): void;
  close(): Promise<void>;
}

export function createPostsFederation(options: FederationOptions): PostsFederation {
  const { db, site } = options;
  const data = federationRepository(db.kysely);
  const remote = remoteRepository(db.kysely);
  const keyPairsOf = userKeyPairs(data);
  const tombstones = tombstonesRepository(db.kysely);
  // People elsewhere's public keys, read on every signed activity, kept in memory too (`kvMemo.ts`).
  const kv = memoizedKv(kyselyKvStore(db.kysely), {
    prefixes: [['_fedify', 'publicKey']],
    max: KEPT_KEYS,
    ttlMs: KEPT_KEY_MS,
  });
  const failures = { deliveries: 0, dropped: 0, refused: 0 };
  const severityOf = options.severityOf ?? (async () => null);
  const queue = kyselyMessageQueue(db.kysely, {
    workers: options.workers ?? 4,
    onDropped: (_message, error) => {
      failures.dropped++;
      options.onError?.(error, 'a queued federation task failed too often and was dropped');
    },
  });
  const deliveries = guardDeliveries(queue, {
    allowPrivateAddress: options.allowPrivateAddress,
    severityOf,
    onRefused: (inbox, why) => {
      failures.refused++;
      options.onError?.(new Error(why), `not delivering to ${inbox}`);
    },
  });
  const federation = createFederation<void>({
    kv,
    // Incoming activities are handled while their request waits, not queued (docs/api-decisions.md):
    // a queued one cost three more writes and a second parse, and the sender retries a 5xx itself.
    queue: { outbox: deliveries, fanout: deliveries },
    manuallyStartQueue: true,
    origin: site.url,
    // Ours add a timeout and a size cap to Fedify's address check, and are made once. Trials on
    // loopback use them too, without the check (not Fedify's `allowPrivateAddress`: with it, Fedify
    // refuses custom loaders and makes two of its own for every request).
    ...guardedLoaderFactories(kv, { allowPrivateAddress: options.allowPrivateAddress }),
    // 1 min, 2, 4... up to 12 h between tries, 12 tries: about two days before a delivery is given up.
    outboxRetryPolicy: createExponentialBackoffPolicy({
      initialDelay: { minutes: 1 },
      maxDelay: { hours: 12 },
      maxAttempts: 12,
    }),
    // Called for every failed attempt, not only the last.
    onOutboxError: (error, activity) => {
      failures.deliveries++;
      options.onError?.(
        error,
        `delivering ${activity?.id?.href ?? 'an activity'} failed (tried again for about two days)`,
      );
    },
  });
  const context = () => federation.createContext(new URL(site.url), undefined);

  /** A post's photos as its Note's images, in order (issue 71): each one's largest stored variant. */
  async function imagesOf(post: NotePostRow): Promise<PostImage[]> {
    return Promise.all(
      photosOfRow(post).map(async (photo) => {
        const media = photo.media_id ? await data.mediaOf(photo.media_id) : undefined;
        const largest = media ? largestVariant(media) : null;
        if (!largest)
          return { url: photo.image, mediaType: mediaTypeOf(photo.image), width: null, height: null, alt: photo.alt };
        return {
          url: options.storage.url(largest.key),
          mediaType: mediaTypeOf(largest.format),
          width: largest.width,
          height: largest.height,
          alt: photo.alt,
        };
      }),
    );
  }

  const noteOfPost = async (post: NotePostRow) =>
    postNote(context(), site, post, await imagesOf(post), await data.mentionedUsers('post', post.id));

  /** A post's Note as it is now, from the database: what a delivery sends. */
  async function postNoteOf(id: string): Promise<Note | null> {
    if (!isUuid(id)) return null;
    const post = await data.findPost(id);
    return post ? noteOfPost(post) : null;
  }

  // The Note a fetch from elsewhere answers: rendered once per version of the post's shared row (a
  // change, a mentioned person's rename too, is a new row: docs/architecture.md, "One read model").
  const servedNotes = options.caches.renderings<NotePostRow, Note>({ name: 'post_notes' });
  async function servedNoteOf(id: string, signer: () => Promise<Signer | null>): Promise<Note | null> {
    const row = await options.services().posts.fetchedRow(id, signer);
    if (!row || row.original_uri !== null) return null;
    return servedNotes.get(row) ?? servedNotes.keep(row, await noteOfPost(row));
  }

  /**
   * Who signed a fetch, as kept here, or null (unsigned, a signature that fails, someone never met
   * or suspended): Fedify checks the signature and that the key's owner names the key. Asked only
   * of fetches of what is for followers or the people named (issue 70).
   */
  const signerOf = (ctx: RequestContext<void>) => async (): Promise<Signer | null> => {
    const owner = await ctx.getSignedKeyOwner().catch(() => null);
    const person = owner?.id ? await remote.personWithActorUri(owner.id.href) : undefined;
    return person && person.domain !== null && person.suspended_at === null ? person : null;
  };

  async function commentNoteOf(id: string, fetchedBy?: RequestContext<void>): Promise<Note | null> {
    if (!isUuid(id)) return null;
    const comment = await data.findComment(id);
    if (!comment) return null;
    // Fetched: only by those who may see the post (issue 70).
    if (fetchedBy && !(await options.services().posts.fetchedRow(comment.post_id, signerOf(fetchedBy)))) return null;
    return commentNote(context(), site, comment, await data.mentionedUsers('comment', id));
  }

  /** A user who may be shown (exists, not suspended). */
  async function actorRow(identifier: string) {
    if (!isUuid(identifier)) return undefined;
    const row = await data.findActor(identifier);
    return row && row.suspended_at === null ? row : undefined;
  }

  const isLocalPerson = async (identifier: string) => (await actorRow(identifier)) !== undefined;

  async function personFor(identifier: string): Promise<Person | null> {
    const user = await actorRow(identifier);
    if (!user) return null;
    const ctx = context();
    return personOf(ctx, site, user, await ctx.getActorKeyPairs(identifier));
  }

  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      if (!isUuid(identifier)) return null;
      const row = await data.findActor(identifier);
      if (!row) {
        // Deleted: gone for good (410), as other servers expect after its Delete(Person).
        const buried = await tombstones.tombstoneOf(identifier);
        return buried
          ? new Tombstone({ id: ctx.getActorUri(identifier), deleted: instantOf(buried.deleted_at) })
          : null;
      }
      // Suspended: gone for other servers (410) until an admin lifts it.
      if (row.suspended_at !== null)
        return new Tombstone({ id: ctx.getActorUri(identifier), deleted: instantOf(row.suspended_at) });
      return personOf(ctx, site, row, await ctx.getActorKeyPairs(identifier));
    })
    .mapHandle(
      async (_ctx, username) =>
        (await data.actorIdNamed(username)) ??
        (await tombstones.tombstoneNamed(usernameKey(username)))?.user_id ??
        null,
    )
    // WebFinger for a profile page's address (`https://host/profile/name`), as for the actor's.
    .mapAlias((_ctx, resource) => {
      if (resource.origin !== new URL(site.url).origin) return null;
      const match = /^\/profile\/([^/]+)$/.exec(resource.pathname);
      return match ? { username: decodeURIComponent(match[1]) } : null;
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => ((await actorRow(identifier)) ? keyPairsOf(identifier) : []));

  federation.setObjectDispatcher(Note, '/post/{id}', (ctx, values) => servedNoteOf(values.id, signerOf(ctx)));

  federation
    .setOutboxDispatcher('/users/{identifier}/outbox', async (ctx, identifier, cursor) => {
      if (cursor === null || !(await actorRow(identifier))) return null;
      const posts = await data.postsOf(identifier, cursor || null, COLLECTION_PAGE + 1);
      const page = posts.slice(0, COLLECTION_PAGE);
      const items = await Promise.all(
        page.map(async (post) => {
          const note = postNote(ctx, site, post, await imagesOf(post), await data.mentionedUsers('post', post.id));
          return new Create({
            id: new URL(`${note.id!.href}#create`),
            actor: ctx.getActorUri(identifier),
            object: note,
            published: instantOf(post.created_at),
            tos: note.toIds,
            ccs: note.ccIds,
          });
        }),
      );
      return { items, nextCursor: posts.length > COLLECTION_PAGE ? page[page.length - 1].id : null };
    })
    .setCounter(async (_ctx, identifier) => (await actorRow(identifier))?.posts_count ?? null)
    .setFirstCursor(() => '');

  /** `localOnly`: followers elsewhere are paged from `federation_followers` (with their inboxes). */
  const followsPage = async (
    side: 'followers' | 'following',
    identifier: string,
    cursor: string,
    localOnly = false,
  ) => {
    const rows = await data.followsOf(side, identifier, cursor || null, COLLECTION_PAGE + 1, localOnly);
    const page = rows.slice(0, COLLECTION_PAGE);
    return { page, nextCursor: rows.length > COLLECTION_PAGE ? page[page.length - 1].follow_id : null };
  };

  /**
   * Followers here first (cursor `''`, then `l:<follow id>`), then those elsewhere (`r`, then
   * `r:<row id>`), each newest first: one collection, as other servers count and page it.
   */
  federation
    .setFollowersDispatcher('/users/{identifier}/followers', async (ctx, identifier, cursor) => {
      if (cursor === null || !(await actorRow(identifier))) return null;
      if (cursor === 'r' || cursor.startsWith('r:')) {
        const rows = await data.remoteFollowersPage(identifier, cursor.slice(2) || null, COLLECTION_PAGE + 1);
        const page = rows.slice(0, COLLECTION_PAGE);
        const items: Recipient[] = page.map((row) => ({
          id: new URL(row.actor_uri),
          inboxId: new URL(row.inbox_uri),
          endpoints: row.shared_inbox_uri ? { sharedInbox: new URL(row.shared_inbox_uri) } : null,
        }));
        return { items, nextCursor: rows.length > COLLECTION_PAGE ? `r:${page[page.length - 1].id}` : null };
      }
      const { page, nextCursor } = await followsPage('followers', identifier, cursor.replace(/^l:/, ''), true);
      const items: Recipient[] = page.map((row) => ({
        id: ctx.getActorUri(row.user_id),
        inboxId: ctx.getInboxUri(row.user_id),
        endpoints: { sharedInbox: ctx.getInboxUri() },
      }));
      if (nextCursor) return { items, nextCursor: `l:${nextCursor}` };
      const elsewhere = (await data.remoteFollowersPage(identifier, null, 1)).length > 0;
      return { items, nextCursor: elsewhere ? 'r' : null };
    })
    .setCounter(async (_ctx, identifier) => {
      const user = await actorRow(identifier);
      // Followers elsewhere are `follows` rows too (their person kept here): counted once.
      return user ? user.followers_count : null;
    })
    .setFirstCursor(() => '');

  federation
    .setFollowingDispatcher('/users/{identifier}/following', async (ctx, identifier, cursor) => {
      if (cursor === null || !(await actorRow(identifier))) return null;
      const { page, nextCursor } = await followsPage('following', identifier, cursor);
      return {
        items: page.map((row) => (row.actor_uri ? new URL(row.actor_uri) : ctx.getActorUri(row.user_id))),
        nextCursor,
      };
    })
    .setCounter(async (_ctx, identifier) => (await actorRow(identifier))?.following_count ?? null)
    .setFirstCursor(() => '');

  const onError = (error: unknown, what: string) => options.onError?.(error, what);
  const people = remotePeople({
    repo: remote,
    media: () => options.services().media,
    allowPrivateAddress: options.allowPrivateAddress,
    onError,
    severityOf,
    publish: options.publish ?? (() => {}),
  });
  const content = remoteContent(
    remote,
    options.services,
    options.allowPrivateAddress,
    options.maxImages ?? POST_IMAGES_DEFAULT,
  );
  const deleted = deletedActors({
    repo: remote,
    data,
    deletion: () => options.services().deletion,
    allowPrivateAddress: options.allowPrivateAddress,
  });
  const listeners = listenToInboxes(federation, {
    data,
    repo: remote,
    people,
    content,
    deleted,
    services: options.services,
    isLocalPerson,
    onError,
  });
  const sharedContext = context();
  const inbox = signedInbox({ kv, context: () => sharedContext, listeners, isLocalPerson, onError });

  /** Work started in the background (outbox backfills): `close` waits for it. */
  const pending = new Set<Promise<void>>();
  function inBackground(work: Promise<void>) {
    const tracked = work.catch((error: unknown) => onError(error, 'fetching posts from elsewhere failed'));
    pending.add(tracked);
    void tracked.finally(() => pending.delete(tracked));
  }

  /** Their newest posts with an image, from their outbox (at most `BACKFILL_POSTS`). */
  async function backfill(person: RemotePersonRow, actor: Actor): Promise<void> {
    const ctx = context();
    const outbox = await actor.getOutbox(ctx).catch(() => null);
    if (!(outbox instanceof Collection)) return;
    let seen = 0;
    for await (const item of ctx.traverseCollection(outbox)) {
      if (seen++ >= BACKFILL_SCAN || stop.signal.aborted) break;
      if (!(item instanceof Create)) continue;
      const note = await item.getObject(ctx).catch(() => null);
      if (!(note instanceof Note) || note.replyTargetId) continue;
      await content.importNote(ctx, person, note, { backfill: true });
      if ((await remote.postCountOf(person.id)) >= BACKFILL_POSTS) break;
    }
  }

  federation.setNodeInfoDispatcher('/nodeinfo/2.1', async () => {
    const now = Date.now();
    const usage = await data.usage({
      month: new Date(now - 30 * DAY_MS).toISOString(),
      halfYear: new Date(now - 180 * DAY_MS).toISOString(),
    });
    return {
      software: { name: 'posts', version: SOFTWARE_VERSION },
      protocols: ['activitypub'],
      openRegistrations: true,
      usage: {
        users: { total: usage.users, activeMonth: usage.activeMonth, activeHalfyear: usage.activeHalfYear },
        localPosts: usage.posts,
        localComments: usage.comments,
      },
      metadata: { nodeName: options.instanceName, upstream: { ...MASTODON_UPSTREAM } },
    };
  });

  const stop = new AbortController();
  let running: Promise<void> | null = null;
  return {
    federation,
    site,
    data,
    remote,
    keyPairsOf,
    inbox,
    signatureHolds: inboxSignatureCheck(kv, () => sharedContext),
    async lookUp(query) {
      const ctx = context();
      const found = await people.lookUp(ctx, query);
      if (!found) return null;
      if (found.created) inBackground(backfill(found.row, found.actor));
      return found.row;
    },
    postNoteOf,
    commentNoteOf,
    personOf: personFor,
    severityOf,
    async lookupObject(identifier) {
      try {
        return await context().lookupObject(identifier, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      } catch {
        return null;
      }
    },
    finishJson: (json) => withImageExtras(attachmentsAsArrays(json), new URL(site.url).origin, data.noteImagesOf),
    farewellOf: (userId) => farewellOf(context(), data.remoteFollowersOf, userId),
    sendFarewell: (farewell) => sendFarewell(context(), farewell),
    async aliasesOf(actorUri) {
      // Fetched past the kept documents: an alias added a moment ago must show.
      const documentLoader = guardedDocumentLoader({ allowPrivateAddress: options.allowPrivateAddress });
      const actor = await context()
        .lookupObject(actorUri, { documentLoader, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
        .catch(() => null);
      return isActor(actor) && actor.id?.href === actorUri ? actor.aliasIds.map((uri) => uri.href) : null;
    },
    sendMove: (userId, targetUri) => sendMove(context(), data.remoteFollowersOf, userId, targetUri),
    failures,
    start() {
      running ??= federation.startQueue(undefined, { signal: stop.signal }).catch((error: unknown) => {
        options.onError?.(error, 'the federation queue stopped');
      });
    },
    async close() {
      stop.abort();
      await Promise.all(pending);
      await running;
    },
  };
}
