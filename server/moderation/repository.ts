/** Queries on reports, the admin log and suspensions. The queue and the log are keyset-paged on UUIDv7 ids. */
import type { Insertable } from 'kysely';
import { newestFirst } from '../db/keyset';
import { bindQueries } from '../db/repository';
import type { AdminLogTable, Queryable, ReportResolution, ReportsTable, ReportTargetType } from '../db/schema';

const insertReport = (db: Queryable, report: Insertable<ReportsTable>) =>
  db.insertInto('reports').values(report).execute();

async function hasOpenReport(db: Queryable, reporterId: string, type: ReportTargetType, targetId: string) {
  const row = await db
    .selectFrom('reports')
    .select('id')
    .where('reporter_id', '=', reporterId)
    .where('target_type', '=', type)
    .where('target_id', '=', targetId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return row !== undefined;
}

const findReport = (db: Queryable, id: string) =>
  db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();

/** The queue: reports of one status with their reporter's name, newest first. */
const listReports = (db: Queryable, status: 'open' | 'resolved', cursor: string | null, limit: number) =>
  newestFirst(
    db
      .selectFrom('reports')
      .innerJoin('users as reporter', 'reporter.id', 'reports.reporter_id')
      .selectAll('reports')
      .select('reporter.username as reporter')
      .where('reports.status', '=', status),
    'reports.id',
    cursor,
    limit,
  ).execute();

export type ReportListRow = Awaited<ReturnType<typeof listReports>>[number];

/** Resolves every open report on the target; the number resolved (0: another admin was first). */
async function resolveReports(
  db: Queryable,
  v: { type: ReportTargetType; targetId: string; resolution: ReportResolution; by: string; now: string },
): Promise<number> {
  const result = await db
    .updateTable('reports')
    .set({ status: 'resolved', resolution: v.resolution, resolved_by: v.by, resolved_at: v.now })
    .where('target_type', '=', v.type)
    .where('target_id', '=', v.targetId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

const postPreviews = (db: Queryable, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('posts')
        .innerJoin('users', 'users.id', 'posts.creator_id')
        .select(['posts.id', 'posts.message', 'posts.image', 'posts.alt', 'users.username'])
        .where('posts.id', 'in', ids)
        .execute();

const commentPreviews = (db: Queryable, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('comments')
        .innerJoin('users', 'users.id', 'comments.user_id')
        .select(['comments.id', 'comments.post_id', 'comments.message', 'users.username'])
        .where('comments.id', 'in', ids)
        .execute();

const userPreviews = (db: Queryable, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('users')
        .select(['id', 'username', 'avatar', 'description', 'suspended_at'])
        .where('id', 'in', ids)
        .execute();

/** Sets or clears the suspension; false when it already was so. */
async function setSuspended(db: Queryable, userId: string, at: string | null): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ suspended_at: at })
    .where('id', '=', userId)
    .where('suspended_at', at === null ? 'is not' : 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const insertLog = (db: Queryable, entry: Insertable<AdminLogTable>) =>
  db.insertInto('admin_log').values(entry).execute();

const listLog = (db: Queryable, cursor: string | null, limit: number) =>
  newestFirst(db.selectFrom('admin_log').selectAll(), 'id', cursor, limit).execute();

export const moderationRepository = bindQueries({
  insertReport,
  hasOpenReport,
  findReport,
  listReports,
  resolveReports,
  postPreviews,
  commentPreviews,
  userPreviews,
  setSuspended,
  insertLog,
  listLog,
});

export type ModerationRepository = ReturnType<typeof moderationRepository>;
