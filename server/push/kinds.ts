/**
 * What a subscription chooses to hear: Posts' kinds (Settings' choices, one column each), Posts'
 * notification types mapped onto them, and Mastodon's `alerts` for the client API. A comment on
 * one's post is a `mention` to Mastodon apps, as `GET /api/v1/notifications` shows it.
 */
import type { NotificationType, PushSubscriptionsTable } from '../db/schema';

export const PUSH_KINDS = ['follow', 'follow_request', 'like', 'comment', 'mention'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export type PushAlerts = Record<PushKind, boolean>;

export const ALERT_COLUMNS = {
  follow: 'alert_follow',
  follow_request: 'alert_follow_request',
  like: 'alert_like',
  comment: 'alert_comment',
  mention: 'alert_mention',
} as const satisfies Record<PushKind, keyof PushSubscriptionsTable>;

/** The kind a notification is pushed as: a like of a comment is a like. */
export function kindOf(type: NotificationType): PushKind {
  switch (type) {
    case 'commentLike':
      return 'like';
    case 'followRequest':
      return 'follow_request';
    default:
      return type;
  }
}

/** Mastodon's alert names this server can honour; the others are answered `false`. */
const MASTODON_ALERTS = ['follow', 'follow_request', 'favourite', 'reblog', 'mention', 'poll', 'status', 'update'];

/** Mastodon's `alerts` from a subscription's kinds. */
export function mastodonAlerts(alerts: PushAlerts): Record<string, boolean | Record<string, boolean>> {
  const out: Record<string, boolean | Record<string, boolean>> = Object.fromEntries(
    MASTODON_ALERTS.map((name) => [name, false]),
  );
  out.follow = alerts.follow;
  out.follow_request = alerts.follow_request;
  out.favourite = alerts.like;
  out.mention = alerts.mention || alerts.comment;
  out['admin.sign_up'] = false;
  out['admin.report'] = false;
  return out;
}

/** Posts' kinds from Mastodon's `alerts` (absent ones false, as Mastodon takes them). */
export function alertsFromMastodon(given: Record<string, boolean>): PushAlerts {
  return {
    follow: given.follow === true,
    follow_request: given.follow_request === true,
    like: given.favourite === true,
    comment: given.mention === true,
    mention: given.mention === true,
  };
}
