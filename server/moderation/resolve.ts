/** Resolving a report: dismiss it, remove the content, or suspend its author; every open report on the target goes with it. */
import type { Report } from '../../lib/types';
import type { CommentsService } from '../comments/service';
import type { Transactional } from '../db/repository';
import type { SessionsRepository } from '../auth/repository';
import { ConflictError, InvalidError, NotFoundError } from '../domain/errors';
import { isUuid, nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import type { PostsService } from '../posts/service';
import type { UsersRepository } from '../users/repository';
import { logEntry } from './adminLog';
import { REPORT_ACTIONS, pick, readNote } from './input';
import type { ModerationRepository } from './repository';
import { suspendIn } from './suspensions';
import type { Target } from './targets';

export interface ResolveDeps {
  data: Transactional<{ moderation: ModerationRepository; users: UsersRepository; sessions: SessionsRepository }>;
  /** removeContent goes through the services that own the content (counters, feed, cascades). */
  posts: Pick<PostsService, 'remove'>;
  comments: Pick<CommentsService, 'remove'>;
  findTarget: (viewer: AuthUser, type: Target['type'], rawId: string) => Promise<Target | null>;
  /** The report as the queue shows it, once resolved. */
  reportById: (id: string) => Promise<Report>;
  publish: PublishEvent;
}

export function resolveReports({ data, posts, comments, findTarget, reportById, publish }: ResolveDeps) {
  const { moderation } = data;
  return {
    /**
     * Acts on the report's target, then resolves every open report on it and logs the action.
     * Removal goes first, through its own service: a retry after a failure finds it gone and goes on.
     */
    async resolve(admin: AuthUser, id: string, input: { action?: unknown; note?: unknown }): Promise<Report> {
      const action = pick(input.action, REPORT_ACTIONS, 'action', 'InvalidAction');
      const note = readNote(input.note);
      const report = isUuid(id) ? await moderation.findReport(id) : undefined;
      if (!report) throw new NotFoundError('Report not found', 'ReportNotFound');
      if (report.status !== 'open') throw new ConflictError('This report is already resolved', 'AlreadyResolved');
      if (action === 'removeContent' && report.target_type === 'user')
        throw new InvalidError('A user is not content: suspend them instead', 'NotContent');
      const author = await data.users.findUserById(report.target_user_id);
      const target = (await findTarget(admin, report.target_type, report.target_id)) ?? {
        type: report.target_type,
        id: report.target_id,
        authorId: report.target_user_id,
        label: author?.username ?? '',
      };
      if (action === 'removeContent') {
        try {
          if (target.type === 'post') await posts.remove(admin, target.id);
          else await comments.remove(admin, target.postId ?? '', target.id);
        } catch (err) {
          if (!(err instanceof NotFoundError)) throw err;
        }
      }
      const now = nowIso();
      const suspended = await data.transaction(async (trx) => {
        const resolved = await trx.moderation.resolveReports({
          type: report.target_type,
          targetId: report.target_id,
          resolution: action,
          by: admin.username,
          now,
        });
        if (resolved === 0) throw new ConflictError('This report is already resolved', 'AlreadyResolved');
        let suspended = false;
        if (action === 'suspendUser' && author) {
          suspended = await suspendIn(trx, admin, author, now);
          const subject = { type: 'user' as const, id: author.id, authorId: author.id, label: author.username };
          await trx.moderation.insertLog(logEntry(admin, 'suspendUser', subject, note, now));
        } else await trx.moderation.insertLog(logEntry(admin, action, target, note, now));
        return suspended;
      });
      if (suspended && author) publish({ type: 'UserSuspended', userId: author.id });
      return reportById(report.id);
    },
  };
}
