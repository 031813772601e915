/**
 * Web Push deliveries (issue 74): every notification this process writes is pushed to its
 * person's subscriptions that hear its kind, after the request's answer (the events this process
 * publishes, once committed: once per change whatever the number of instances). Each push is an
 * RFC 8291 `aes128gcm` record signed with the instance's VAPID key (RFC 8292), with a `TTL` and an
 * `Urgency`; a 5xx, a 429, a timeout or a failed connection is tried again with backoff; a 404 or
 * 410 means the browser dropped it, and the subscription is deleted. The queue is this process's
 * (pushes are worth little once late, and a restart loses at most the retries under way).
 */
import webpush from 'web-push';
import type { AppNotification } from '../../lib/types';
import { limiter } from '../domain/limiter';
import type { DomainEvent } from '../events/events';
import { checkUrlShape } from '../outgoing/outgoingGuard';
import { type GuardedFetch, pinnedFetch } from '../outgoing/pinnedLookup';
import { notificationType } from '../notifications/mastodonTypes';
import { ALERT_COLUMNS, type PushKind, kindOf } from './kinds';
import { pushPayload } from './payload';
import type { PushRepository, PushSubscriptionRow } from './repository';
import type { TokenSealer } from './sealedTokens';

/** How long a push service keeps an undelivered push (the phone off): two days, as Mastodon's. */
export const PUSH_TTL_SECONDS = 2 * 24 * 3600;
/** Waits before each retry: a push service's outage is mostly short, and a late push is worth little. */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000];
const PUSH_TIMEOUT_MS = 15_000;

/** RFC 8030's urgency: someone's words to the person may wake a phone; a like or a follow need not. */
const URGENCY: Record<PushKind, 'low' | 'normal'> = {
  follow: 'low',
  follow_request: 'normal',
  like: 'low',
  comment: 'normal',
  mention: 'normal',
};

export interface PushDeliveriesDeps {
  subscribeOwn(listener: (event: DomainEvent) => void): () => void;
  /** The notification as its user sees it (null once gone or hidden). */
  find(userId: string, id: string): Promise<AppNotification | null>;
  repo: PushRepository;
  vapid: { subject: string; publicKey: string; privateKey: string };
  /** The start of the links and images in a payload. */
  site: string;
  allowPrivateAddress: boolean;
  sealer: TokenSealer;
  log: { warn(obj: unknown, message?: string): void };
  retryDelaysMs?: number[];
  timeoutMs?: number;
  /** Pushes sent at once (each may wait on a slow push service). */
  concurrency?: number;
}

type Outcome = 'sent' | 'gone' | 'retry' | 'refused';

export function pushDeliveries(deps: PushDeliveriesDeps) {
  const { find, repo, vapid, site, sealer, log } = deps;
  const { retryDelaysMs = RETRY_DELAYS_MS, timeoutMs = PUSH_TIMEOUT_MS, concurrency = 4 } = deps;
  const slots = limiter(concurrency);
  const fetchPush: GuardedFetch = pinnedFetch(deps.allowPrivateAddress);
  const pending = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  function track(work: () => Promise<void>): void {
    if (closed) return;
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => log.warn({ err: error }, 'A Web Push delivery failed'))
      .finally(() => pending.delete(run));
    pending.add(run);
  }

  /** Whether the policy lets the actor's notification through (Mastodon's `policy`). */
  async function allowedBy(
    subscription: PushSubscriptionRow,
    relation: () => Promise<{ followed: boolean; follower: boolean }>,
  ) {
    if (subscription.policy === 'all') return true;
    if (subscription.policy === 'none') return false;
    return (await relation())[subscription.policy];
  }

  async function fanOut(userId: string, notificationId: string): Promise<void> {
    // Most people subscribed nowhere: one look-up by user, before the notification is read.
    const live = await repo.deliverable(userId);
    if (live.length === 0) return;
    const notification = await find(userId, notificationId);
    // Read in an open tab before this ran: the person has seen it.
    if (!notification || notification.read) return;
    const column = ALERT_COLUMNS[kindOf(notification.type)];
    const subscriptions = live.filter((subscription) => subscription[column] === 1);
    let related: Promise<{ followed: boolean; follower: boolean }> | null = null;
    const relation = () =>
      (related ??= repo
        .actorOf(notificationId)
        .then((actorId) => (actorId ? repo.relation(userId, actorId) : { followed: false, follower: false })));
    for (const subscription of subscriptions)
      if (await allowedBy(subscription, relation)) track(() => attempt(subscription, userId, notificationId, 0));
  }

  async function attempt(subscription: PushSubscriptionRow, userId: string, notificationId: string, tries: number) {
    const outcome = await slots.run(() => send(subscription, userId, notificationId));
    if (outcome !== 'retry' || tries >= retryDelaysMs.length || closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      track(() => attempt(subscription, userId, notificationId, tries + 1));
    }, retryDelaysMs[tries]);
    timer.unref();
    timers.add(timer);
  }

  async function send(subscription: PushSubscriptionRow, userId: string, notificationId: string): Promise<Outcome> {
    // Read again as its turn comes (a retry, a wait for a slot): it may have been read, or taken back.
    const notification = await find(userId, notificationId);
    if (!notification || notification.read) return 'refused';
    const accessToken = subscription.token_id
      ? (subscription.access_token_sealed && sealer.open(subscription.access_token_sealed)) || ''
      : undefined;
    // Mastodon apps have no status to name for a like of a comment.
    if (accessToken !== undefined && notificationType(notification.type) === null) return 'refused';
    const payload = JSON.stringify(pushPayload(notification, site, accessToken));
    const details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      payload,
      {
        vapidDetails: vapid,
        TTL: PUSH_TTL_SECONDS,
        urgency: URGENCY[kindOf(notification.type)],
        contentEncoding: 'aes128gcm',
      },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers))
      if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
    let status: number;
    try {
      checkUrlShape(details.endpoint, deps.allowPrivateAddress);
      const response = await fetchPush(details.endpoint, {
        method: 'POST',
        headers,
        body: details.body ?? undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (error) {
      log.warn({ err: error, endpoint: new URL(subscription.endpoint).origin }, 'A Web Push did not get through');
      return 'retry';
    }
    if (status >= 200 && status < 300) return 'sent';
    if (status === 404 || status === 410) {
      await repo.removeGone(subscription.id, subscription.endpoint);
      return 'gone';
    }
    if (status === 429 || status >= 500) return 'retry';
    log.warn({ status, endpoint: new URL(subscription.endpoint).origin }, 'A push service refused a Web Push');
    return 'refused';
  }

  const unsubscribe = deps.subscribeOwn((event) => {
    for (const change of event.notifications ?? [])
      if ('notificationId' in change) track(() => fanOut(change.userId, change.notificationId));
  });

  return {
    /** Pushes waiting or under way (retries waiting for their time included). */
    depth: () => pending.size + timers.size,
    /** Resolves once every push begun so far has ended (retries waiting for their time are not waited for). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    /** Stops listening, drops the waiting retries, and waits for the pushes under way. */
    async close(): Promise<void> {
      unsubscribe();
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

export type PushDeliveries = ReturnType<typeof pushDeliveries>;
