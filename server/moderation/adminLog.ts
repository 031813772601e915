/** The admin log: every admin action, with who did it, to what and why. */
import type { AdminLogEntry } from '../../lib/types';
import type { AdminAction } from '../db/schema';
import { newId } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { ModerationRepository } from './repository';
import type { Target } from './targets';

/** The log's row for an action. */
export const logEntry = (
  admin: AuthUser,
  action: AdminAction,
  target: Pick<Target, 'id' | 'label'> & { type: Target['type'] | 'domain' | 'tag' },
  note: string,
  now: string,
) => ({
  id: newId(),
  admin_username: admin.username,
  action,
  target_type: target.type,
  target_id: target.id,
  target_label: target.label,
  note,
  created_at: now,
});

export function adminLog(moderation: Pick<ModerationRepository, 'listLog'>) {
  return {
    async log(page: Page): Promise<AdminLogEntry[]> {
      const rows = await moderation.listLog(page.cursor, page.limit + 1);
      return rows.map((r) => ({
        id: r.id,
        admin: r.admin_username,
        action: r.action,
        targetType: r.target_type,
        targetId: r.target_id,
        target: r.target_label,
        note: r.note,
        createdAt: r.created_at,
      }));
    },
  };
}
