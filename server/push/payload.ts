/**
 * What a push carries, as JSON inside the encrypted record: Mastodon's fields (`title`, `body`,
 * `icon`, `notification_type`, `notification_id`, and `access_token` for an app's subscription),
 * and for the web app's worker the page to open (`url`) and the post's thumbnail (`image`).
 */
import { links } from '../../lib/pages';
import { NOTIFICATION_ICON_PATH } from '../../lib/pwa';
import type { AppNotification } from '../../lib/types';
import { notificationType } from '../notifications/mastodonTypes';

/** A notification's text stays short on a lock screen; the rest is one tap away. */
const BODY_MAX = 140;

const absolute = (site: string, url: string) => (url.startsWith('/') ? `${site}${url}` : url);

function titleOf(n: AppNotification): string {
  const who = n.actor.username;
  switch (n.type) {
    case 'follow':
      return `${who} followed you`;
    case 'followRequest':
      return `${who} asked to follow you`;
    case 'like':
      return `${who} liked your post`;
    case 'commentLike':
      return `${who} liked your comment`;
    case 'comment':
      return `${who} commented on your post`;
    case 'mention':
      return `${who} mentioned you`;
  }
}

function pageOf(n: AppNotification): string {
  if (n.type === 'follow') return links.profile(n.actor.username);
  return n.post ? links.post(n.post._id) : links.notifications();
}

export interface PushPayload {
  title: string;
  body: string;
  icon: string;
  notification_id: string;
  notification_type: string;
  preferred_locale: string;
  access_token?: string;
  url?: string;
  image?: string;
}

export function pushPayload(
  n: AppNotification,
  site: string,
  /** A client API subscription's token; undefined: the web app's. */
  accessToken: string | undefined,
): PushPayload {
  const text = n.comment?.message ?? '';
  const common = {
    title: titleOf(n),
    body: text.length > BODY_MAX ? `${text.slice(0, BODY_MAX - 1)}…` : text,
    icon: absolute(site, n.actor.avatar ?? NOTIFICATION_ICON_PATH),
    notification_id: n.id,
    preferred_locale: 'en',
  };
  if (accessToken !== undefined)
    return { ...common, notification_type: notificationType(n.type) ?? 'favourite', access_token: accessToken };
  return {
    ...common,
    notification_type: n.type,
    url: absolute(site, pageOf(n)),
    ...(n.post && { image: absolute(site, n.post.image) }),
  };
}
