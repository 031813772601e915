/** Reports: anyone files one about a post, a comment or a user; admins read the queue. */
import type { Report, ReportTargetType } from '../../lib/types';
import { isUniqueViolation } from '../db/errors';
import { ConflictError, InvalidError, NotFoundError } from '../domain/errors';
import { newId, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { UsersRepository } from '../users/repository';
import { REPORT_REASONS, REPORT_TARGET_TYPES, type ReportInput, pick, readNote } from './input';
import type { ModerationRepository } from './repository';
import { previews, toReport } from './serializers';
import { type Target, targetMissing } from './targets';

export interface ReportsDeps {
  moderation: ModerationRepository;
  users: Pick<UsersRepository, 'findUserById'>;
  findTarget: (viewer: AuthUser, type: ReportTargetType, rawId: string) => Promise<Target | null>;
  blockedFrom: (viewer: AuthUser, target: Target) => Promise<boolean>;
}

export function reports({ moderation, users, findTarget, blockedFrom }: ReportsDeps) {
  return {
    async report(user: AuthUser, input: ReportInput): Promise<{ id: string }> {
      const type = pick(input.targetType, REPORT_TARGET_TYPES, 'targetType', 'InvalidTargetType');
      const reason = pick(input.reason, REPORT_REASONS, 'reason', 'InvalidReason');
      const note = readNote(input.note);
      if (typeof input.targetId !== 'string' || input.targetId.length === 0)
        throw new InvalidError('targetId is required', 'InvalidTargetId');
      const target = await findTarget(user, type, input.targetId);
      if (!target || (await blockedFrom(user, target))) throw targetMissing(type);
      if (target.authorId === user.id) throw new InvalidError('You cannot report yourself', 'CannotReportOwn');
      const duplicate = () =>
        new ConflictError('You have already reported this; an admin will look at it', 'AlreadyReported');
      if (await moderation.hasOpenReport(user.id, type, target.id)) throw duplicate();
      const id = newId();
      try {
        await moderation.insertReport({
          id,
          reporter_id: user.id,
          target_type: type,
          target_id: target.id,
          target_user_id: target.authorId,
          reason,
          note,
          status: 'open',
          created_at: nowIso(),
          resolved_at: null,
          resolved_by: null,
          resolution: null,
        });
      } catch (err) {
        // The same report sent twice at once: the partial unique index keeps one.
        if (isUniqueViolation(err)) throw duplicate();
        throw err;
      }
      return { id };
    },

    async queue(status: 'open' | 'resolved', page: Page): Promise<Report[]> {
      const rows = await moderation.listReports(status, page.cursor, page.limit + 1);
      const targets = await previews(moderation, rows);
      return rows.map((r) => toReport(r, targets));
    },

    /** One report as the queue shows it. */
    async byId(id: string): Promise<Report> {
      const found = await moderation.findReport(id);
      const reporter = found && (await users.findUserById(found.reporter_id));
      if (!found) throw new NotFoundError('Report not found', 'ReportNotFound');
      const row = { ...found, reporter: reporter?.username ?? '' };
      return toReport(row, await previews(moderation, [row]));
    },
  };
}
