/** Reports and admin users as the admin API answers them: the queue's rows with a preview of each target. */
import type { AdminUserInfo, Report, ReportTarget, ReportTargetType } from '../../lib/types';
import type { UserRow } from '../users/repository';
import type { ModerationRepository, ReportListRow } from './repository';

/** The targets of these reports, read in one statement per type, by `type:id`. */
export async function previews(
  moderation: Pick<ModerationRepository, 'postPreviews' | 'commentPreviews' | 'userPreviews'>,
  rows: ReportListRow[],
): Promise<Map<string, ReportTarget>> {
  const idsOf = (type: ReportTargetType) => [
    ...new Set(rows.filter((r) => r.target_type === type).map((r) => r.target_id)),
  ];
  const [postRows, commentRows, userRows] = await Promise.all([
    moderation.postPreviews(idsOf('post')),
    moderation.commentPreviews(idsOf('comment')),
    moderation.userPreviews(idsOf('user')),
  ]);
  const found = new Map<string, ReportTarget>();
  for (const p of postRows)
    found.set(`post:${p.id}`, {
      type: 'post',
      _id: p.id,
      message: p.message,
      image: p.image,
      alt: p.alt,
      creator: p.username,
    });
  for (const c of commentRows)
    found.set(`comment:${c.id}`, {
      type: 'comment',
      commentId: c.id,
      postId: c.post_id,
      message: c.message,
      creator: c.username,
    });
  for (const u of userRows)
    found.set(`user:${u.id}`, {
      type: 'user',
      username: u.username,
      avatar: u.avatar,
      description: u.description,
      suspended: u.suspended_at !== null,
    });
  return found;
}

export const toReport = (r: ReportListRow, targets: Map<string, ReportTarget>): Report => ({
  id: r.id,
  targetType: r.target_type,
  targetId: r.target_id,
  reason: r.reason,
  note: r.note,
  status: r.status,
  reporter: r.reporter,
  createdAt: r.created_at,
  resolvedAt: r.resolved_at,
  resolvedBy: r.resolved_by,
  resolution: r.resolution,
  target: targets.get(`${r.target_type}:${r.target_id}`) ?? null,
});

export const adminUserInfo = (user: UserRow): AdminUserInfo => ({
  username: user.username,
  role: user.role,
  avatar: user.avatar,
  postsCount: Number(user.posts_count),
  createdAt: user.created_at,
  suspendedAt: user.suspended_at,
});
