/**
 * The client API's live streams (Mastodon's streaming API), whatever carries them (WebSocket or
 * Server-Sent Events, streamingRoutes.ts): which streams each connection follows, and what the
 * domain events send it. Whether a post goes to a stream is asked of the posts service with the
 * lists' own rule (`inList`: blocks, mutes, suspensions, follows, tags), and every status and
 * notification is mapped as the REST endpoints map them: no rule of its own here.
 * A connection lives no longer than its token's session (revocation ends it, as streams.ts does).
 */
import { normalizeTag, tagKey } from '../../lib/validation';
import type { AuthUser } from '../domain/types';
import type { DomainEvents } from '../events/domainEvents';
import type { DomainEvent, NotificationWritten } from '../events/events';
import type { StreamSlots } from '../notifications/streamSlots';
import { STREAMS_PER_USER_MAX } from '../notifications/streams';
import { covers } from '../oauth/scopes';
import type { Site } from './mappers';
import { notificationEntities } from './notifications';
import { statusesOfPosts } from './statuses';
import type { ClientServices } from './support';

/**
 * The streams served: Mastodon's names. Posts from elsewhere are never in the public timeline, so
 * `public` and `public:local` are one; a tag's page has both, and `hashtag:local` leaves out those
 * from elsewhere.
 */
export const STREAM_NAMES = [
  'user',
  'user:notification',
  'public',
  'public:local',
  'hashtag',
  'hashtag:local',
] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

/** Streams one connection may follow at once (Mastodon's web app follows a handful). */
export const SUBSCRIPTIONS_PER_CONNECTION_MAX = 32;

export const isStreamName = (name: unknown): name is StreamName =>
  typeof name === 'string' && (STREAM_NAMES as readonly string[]).includes(name);

/** One followed stream: its name and, for a hashtag, the tag as the client spelled it. */
export interface Subscription {
  name: StreamName;
  tag?: string;
}

/** The `stream` array of every message: `["user"]`, `["hashtag", "cats"]`. */
export const streamLabel = ({ name, tag }: Subscription): string[] => (tag === undefined ? [name] : [name, tag]);
const keyOf = (sub: Subscription) => streamLabel(sub).join('\u0000');

/** What a transport does with one message (`event` with its `payload`, as Mastodon sends them). */
export type Deliver = (stream: string[], event: string, payload: string) => void;

export interface Connection {
  viewer: AuthUser;
  scopes: string[];
  site: Site;
  address: string;
  deliver: Deliver;
  /** Ends the transport (a revoked token, the server closing). */
  end(): void;
  subscriptions: Map<string, Subscription>;
  /** This connection's events are mapped and written one after the other, in the order they came. */
  turn: Promise<void>;
  closed: boolean;
}

/** Why a stream is refused before it opens: the user's, the address's or the process's cap. */
export type OpenRefusal = 'user' | 'address' | 'process';

export interface ClientStreamsDeps {
  events: Pick<DomainEvents, 'subscribe'>;
  services: ClientServices;
  slots: StreamSlots;
  log: { warn(obj: unknown, message?: string): void };
}

const TIMELINES = new Set<StreamName>(['user', 'public', 'public:local', 'hashtag', 'hashtag:local']);
const timelineOf = (sub: Subscription) =>
  sub.name === 'user'
    ? ({ kind: 'home' } as const)
    : sub.tag !== undefined
      ? ({ kind: 'tag', tag: sub.tag } as const)
      : ({ kind: 'everyone' } as const);

export function clientStreams({ events, services, slots, log }: ClientStreamsDeps) {
  const byUser = new Map<string, Set<Connection>>();
  let closed = false;

  const all = () => [...byUser.values()].flatMap((set) => [...set]);

  function inTurn(connection: Connection, work: () => Promise<void>): void {
    connection.turn = connection.turn
      .then(() => (connection.closed ? undefined : work()))
      .catch((error: unknown) => log.warn({ err: error }, 'Preparing a streaming event failed'));
  }

  /**
   * The services as one event's connections use them: the post's author is read once for all of
   * them (an author's public facts are the same for every viewer).
   */
  function forOneEvent(): ClientServices {
    const authors = new Map<string, ReturnType<ClientServices['users']['authorsNamed']>>();
    const authorsNamed: ClientServices['users']['authorsNamed'] = (names) => {
      const key = names.join('\u0000');
      let found = authors.get(key);
      if (!found) authors.set(key, (found = services.users.authorsNamed(names)));
      return found;
    };
    return { ...services, users: { ...services.users, authorsNamed } };
  }

  /** A new or edited post: to each of the connection's timelines whose list shows it to the viewer. */
  function postChanged(
    connection: Connection,
    shared: ClientServices,
    postId: string,
    tags: string[] | null,
    event: string,
  ): void {
    const subs = [...connection.subscriptions.values()].filter((sub) => TIMELINES.has(sub.name));
    if (subs.length === 0 || !covers(connection.scopes, 'read:statuses')) return;
    inTurn(connection, async () => {
      let payload: string | null = null;
      for (const sub of subs) {
        // The event names the tags' keys: a hashtag stream not among them reads nothing.
        if (sub.tag !== undefined && tags && !tags.includes(tagKey(normalizeTag(sub.tag)))) continue;
        const post = await services.posts.inList(connection.viewer, timelineOf(sub), postId);
        if (!post || (sub.name === 'hashtag:local' && post.originalUri !== undefined)) continue;
        payload ??= JSON.stringify((await statusesOfPosts(shared, connection.viewer, connection.site, [post]))[0]);
        if (!connection.closed) connection.deliver(streamLabel(sub), event, payload);
      }
    });
  }

  function postDeleted(connection: Connection, postId: string, creatorId: string): void {
    const subs = [...connection.subscriptions.values()].filter((sub) => TIMELINES.has(sub.name));
    if (subs.length === 0) return;
    inTurn(connection, async () => {
      // An author the viewer's lists hide had nothing in them to take back.
      if (!(await services.posts.showsAuthor(connection.viewer, creatorId))) return;
      for (const sub of subs) if (!connection.closed) connection.deliver(streamLabel(sub), 'delete', postId);
    });
  }

  function notified(connection: Connection, change: NotificationWritten): void {
    const subs = [...connection.subscriptions.values()].filter(
      (sub) => sub.name === 'user' || sub.name === 'user:notification',
    );
    if (subs.length === 0 || !covers(connection.scopes, 'read:notifications')) return;
    inTurn(connection, async () => {
      const found = await services.notifications.find(change.userId, change.notificationId);
      if (!found) return;
      const entity = await notificationEntities(services, connection.viewer, connection.site)(found);
      if (!entity) return;
      const payload = JSON.stringify(entity);
      for (const sub of subs) if (!connection.closed) connection.deliver(streamLabel(sub), 'notification', payload);
    });
  }

  /** The connections a revocation ends: the same rule as the notification streams' (streams.ts). */
  function revokedBy(event: DomainEvent): Connection[] {
    if (!('userId' in event)) return [];
    const connections = [...(byUser.get(event.userId) ?? [])];
    switch (event.type) {
      case 'SessionRevoked':
        return connections.filter((c) => c.viewer.sessionId === event.sessionId);
      case 'SessionsRevoked':
        return connections.filter((c) => c.viewer.sessionId !== event.keptSessionId);
      case 'UserSuspended':
      case 'AccountDeleted':
        return connections;
      default:
        return [];
    }
  }

  const unsubscribe = events.subscribe((event) => {
    if (byUser.size === 0) return;
    for (const connection of revokedBy(event)) close(connection);
    for (const change of event.notifications ?? [])
      if ('notificationId' in change) for (const c of byUser.get(change.userId) ?? []) notified(c, change);
    switch (event.type) {
      case 'PostCreated': {
        // An imported post is months old: streams show what is new (issue 76).
        if (event.imported) break;
        const shared = forOneEvent();
        for (const c of all()) postChanged(c, shared, event.postId, event.tags, 'update');
        break;
      }
      case 'PostEdited': {
        const shared = forOneEvent();
        for (const c of all()) postChanged(c, shared, event.postId, null, 'status.update');
        break;
      }
      case 'PostDeleted':
        for (const c of all()) postDeleted(c, event.postId, event.creatorId);
        break;
      default:
    }
  });

  function close(connection: Connection): void {
    if (connection.closed) return;
    connection.closed = true;
    const set = byUser.get(connection.viewer.id);
    if (set?.delete(connection)) {
      slots.give(connection.address);
      if (set.size === 0) byUser.delete(connection.viewer.id);
    }
    connection.end();
  }

  return {
    /** Why the user, from that address, may not open one more stream; null when they may. */
    refusal(userId: string, address: string): OpenRefusal | null {
      if ((byUser.get(userId)?.size ?? 0) >= STREAMS_PER_USER_MAX) return 'user';
      return slots.refusal(address);
    },

    /** Registers a connection (after `refusal` said it may open); answers it, with `close` to call when it ends. */
    open(
      fields: Pick<Connection, 'viewer' | 'scopes' | 'site' | 'address' | 'deliver' | 'end'>,
      first: Subscription[],
    ): Connection | null {
      if (closed) return null;
      const connection: Connection = {
        ...fields,
        subscriptions: new Map(first.map((sub) => [keyOf(sub), sub])),
        turn: Promise.resolve(),
        closed: false,
      };
      let set = byUser.get(fields.viewer.id);
      if (!set) byUser.set(fields.viewer.id, (set = new Set()));
      set.add(connection);
      slots.take(fields.address);
      return connection;
    },

    /** False when the connection already follows as many streams as one may (and not this one). */
    subscribe(connection: Connection, sub: Subscription): boolean {
      const key = keyOf(sub);
      if (connection.subscriptions.size >= SUBSCRIPTIONS_PER_CONNECTION_MAX && !connection.subscriptions.has(key))
        return false;
      connection.subscriptions.set(key, sub);
      return true;
    },

    unsubscribe(connection: Connection, sub: Subscription): void {
      connection.subscriptions.delete(keyOf(sub));
    },

    close,

    /** The streams the user's connections here follow, in all (tests wait for a subscription with it). */
    subscriptionsOf(userId: string): number {
      let count = 0;
      for (const connection of byUser.get(userId) ?? []) count += connection.subscriptions.size;
      return count;
    },

    /** Open connections in this process. */
    get size(): number {
      let count = 0;
      for (const set of byUser.values()) count += set.size;
      return count;
    },

    /** Ends every connection (the server is closing) and stops listening. */
    closeAll(): void {
      if (closed) return;
      closed = true;
      unsubscribe();
      for (const connection of all()) close(connection);
    },
  };
}

export type ClientStreams = ReturnType<typeof clientStreams>;
