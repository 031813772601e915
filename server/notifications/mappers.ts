import type { AppNotification } from '../../lib/types';
import type { NotificationRow } from './repository';

export const toNotification = (row: NotificationRow): AppNotification => ({
  id: row.id,
  type: row.type,
  read: row.id <= (row.read_to ?? ''),
  createdAt: row.created_at,
  actor: { username: row.actor_username, avatar: row.actor_avatar, followedByMe: Boolean(row.actor_followed) },
  post: row.post_id !== null && row.post_image !== null ? { _id: row.post_id, image: row.post_image } : null,
  comment:
    row.comment_id !== null && row.comment_message !== null
      ? { commentId: row.comment_id, message: row.comment_message }
      : null,
});
