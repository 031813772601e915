/**
 * Moderation (issue 23): users report posts, comments and users (`reports.ts`); admins work through
 * the queue, resolve reports (`resolve.ts`), suspend and unsuspend accounts (`suspensions.ts`), and
 * every admin action lands in the log (`adminLog.ts`).
 */
import type { SessionsRepository } from '../auth/repository';
import type { CommentsRepository } from '../comments/repository';
import type { CommentsService } from '../comments/service';
import type { Transactional } from '../db/repository';
import type { PublishEvent } from '../events/domainEvents';
import type { PostsRepository } from '../posts/repository';
import type { PostsService } from '../posts/service';
import type { SafetyRepository } from '../safety/repository';
import type { UsersRepository } from '../users/repository';
import { adminLog } from './adminLog';
import { reports } from './reports';
import type { ModerationRepository } from './repository';
import { resolveReports } from './resolve';
import { suspensions } from './suspensions';
import { reportTargets } from './targets';

export { REPORT_ACTIONS, REPORT_REASONS, REPORT_TARGET_TYPES, type ReportInput } from './input';

export interface ModerationServiceDeps {
  data: Transactional<{
    moderation: ModerationRepository;
    users: UsersRepository;
    posts: PostsRepository;
    comments: CommentsRepository;
    sessions: SessionsRepository;
    safety: SafetyRepository;
  }>;
  /** removeContent goes through the services that own the content (counters, feed, cascades). */
  posts: Pick<PostsService, 'remove'>;
  comments: Pick<CommentsService, 'remove'>;
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
}

export function moderationService({ data, posts, comments, publish }: ModerationServiceDeps) {
  const { findTarget, blockedFrom } = reportTargets(data);
  const intake = reports({ moderation: data.moderation, users: data.users, findTarget, blockedFrom });
  return {
    report: intake.report,
    queue: intake.queue,
    ...resolveReports({ data, posts, comments, findTarget, reportById: intake.byId, publish }),
    ...suspensions({ data, publish }),
    log: adminLog(data.moderation).log,
  };
}

export type ModerationService = ReturnType<typeof moderationService>;
