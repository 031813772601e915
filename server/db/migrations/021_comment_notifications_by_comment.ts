/**
 * Issue 31: a notification about a comment (the comment, a mention in it, a like of it) finds its
 * post through the comment, and keeps no post id of its own. Only likes' and posts' mentions' rows
 * then go into `notifications_post_idx` (partial, `post_id is not null`): a comment's notification
 * wrote a page of that index of its own. Deleting a post still takes them: its comments go, and
 * theirs with them (`comment_id ... on delete cascade`).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update notifications set post_id = null where comment_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update notifications
    set post_id = (select c.post_id from comments c where c.id = notifications.comment_id)
    where comment_id is not null`.execute(db);
}
