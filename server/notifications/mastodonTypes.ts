import type { AppNotification } from '../../lib/types';

/**
 * Posts' notification types as Mastodon's: a like is a favourite, a comment on one's post a mention
 * (the client API's notifications and the pushes to its apps name them alike).
 */
export function notificationType(
  type: AppNotification['type'],
): 'follow' | 'follow_request' | 'favourite' | 'mention' | null {
  switch (type) {
    case 'follow':
      return 'follow';
    case 'followRequest':
      return 'follow_request';
    case 'like':
      return 'favourite';
    case 'comment':
    case 'mention':
      return 'mention';
    default:
      // A like of a comment: Mastodon has no status to name for it without the comment's post.
      return null;
  }
}
