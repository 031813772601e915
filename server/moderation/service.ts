/**
 * Moderation (issue 23): users report posts, comments and users; admins work through the queue,
 * remove content, suspend and unsuspend accounts, and every admin action lands in the log.
 */
import { REPORT_NOTE_MAX } from '../../lib/limits';
import type {
  AdminLogEntry,
  AdminUserInfo,
  Report,
  ReportAction,
  ReportReason,
  ReportTarget,
  ReportTargetType,
} from '../../lib/types';
import type { CommentsRepository } from '../comments/repository';
import type { CommentsService } from '../comments/service';
import { isUniqueViolation } from '../db/errors';
import type { Transactional } from '../db/repository';
import type { AdminAction } from '../db/schema';
import type { SessionsRepository } from '../auth/repository';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../domain/errors';
import type { PublishEvent } from '../events/domainEvents';
import { isUuid, newId, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { PostsRepository } from '../posts/repository';
import type { PostsService } from '../posts/service';
import type { UserRow, UsersRepository } from '../users/repository';
import type { ModerationRepository, ReportListRow } from './repository';

export const REPORT_TARGET_TYPES: readonly ReportTargetType[] = ['post', 'comment', 'user'];
export const REPORT_REASONS: readonly ReportReason[] = ['spam', 'abuse', 'illegal', 'other'];
export const REPORT_ACTIONS: readonly ReportAction[] = ['dismiss', 'removeContent', 'suspendUser'];

export interface ReportInput {
  targetType?: unknown;
  targetId?: unknown;
  reason?: unknown;
  note?: unknown;
}

/** The longest start of a post or comment the log keeps as its target's label. */
const LABEL_MAX = 80;

const userNotFound = () => new NotFoundError('User not found', 'UserNotFound');

function readNote(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') throw new InvalidError('The note must be text', 'InvalidNote');
  const note = raw.trim();
  if (note.length > REPORT_NOTE_MAX)
    throw new InvalidError(`The note must be at most ${REPORT_NOTE_MAX} characters`, 'InvalidNote');
  return note;
}

function pick<T extends string>(raw: unknown, allowed: readonly T[], what: string, code: string): T {
  if (typeof raw !== 'string' || !(allowed as readonly string[]).includes(raw))
    throw new InvalidError(`${what} must be one of ${allowed.join(', ')}`, code);
  return raw as T;
}

export interface ModerationServiceDeps {
  data: Transactional<{
    moderation: ModerationRepository;
    users: UsersRepository;
    posts: PostsRepository;
    comments: CommentsRepository;
    sessions: SessionsRepository;
  }>;
  /** removeContent goes through the services that own the content (counters, feed, cascades). */
  posts: Pick<PostsService, 'remove'>;
  comments: Pick<CommentsService, 'remove'>;
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
}

interface Target {
  type: ReportTargetType;
  id: string;
  authorId: string;
  label: string;
  /** The post a comment belongs to. */
  postId?: string;
}

export function moderationService({ data, posts, comments, publish }: ModerationServiceDeps) {
  const { moderation } = data;

  const label = (text: string) => (text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text);

  /** A user by id (what reports store) or by username (what the API and the profile show). */
  async function findUser(idOrName: string): Promise<UserRow | undefined> {
    return isUuid(idOrName) ? data.users.findUserById(idOrName) : data.users.findUserByUsername(idOrName);
  }

  async function findTarget(viewer: AuthUser, type: ReportTargetType, rawId: string): Promise<Target | null> {
    if (type === 'user') {
      const user = await findUser(rawId);
      return user ? { type, id: user.id, authorId: user.id, label: user.username } : null;
    }
    if (!isUuid(rawId)) return null;
    if (type === 'post') {
      const [post] = await moderation.postPreviews([rawId]);
      const owner = post && (await data.posts.findPostOwner(rawId));
      return owner ? { type, id: post.id, authorId: owner.creator_id, label: label(post.message) } : null;
    }
    const comment = await data.comments.findComment(viewer.id, rawId);
    return comment
      ? { type, id: comment.id, authorId: comment.user_id, label: label(comment.message), postId: comment.post_id }
      : null;
  }

  const targetMissing = (type: ReportTargetType) =>
    type === 'user'
      ? userNotFound()
      : new NotFoundError(type === 'post' ? 'Post not found' : 'Comment not found', 'TargetNotFound');

  /** Suspends inside `trx`; true when it was not suspended yet. Sessions end with the transaction. */
  async function suspendIn(
    trx: Parameters<Parameters<typeof data.transaction>[0]>[0],
    admin: AuthUser,
    user: UserRow,
    now: string,
  ): Promise<boolean> {
    if (user.id === admin.id) throw new ForbiddenError('You cannot suspend yourself', 'CannotSuspendSelf');
    if (user.role === 'admin') throw new ForbiddenError('An admin cannot be suspended', 'CannotSuspendAdmin');
    if (!(await trx.moderation.setSuspended(user.id, now))) return false;
    await trx.sessions.revokeUserSessions(user.id, now);
    return true;
  }

  async function previews(rows: ReportListRow[]): Promise<Map<string, ReportTarget>> {
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

  const logEntry = (admin: AuthUser, action: AdminAction, target: Target, note: string, now: string) => ({
    id: newId(),
    admin_username: admin.username,
    action,
    target_type: target.type,
    target_id: target.id,
    target_label: target.label,
    note,
    created_at: now,
  });

  const toReport = (r: ReportListRow, targets: Map<string, ReportTarget>): Report => ({
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

  /** One report as the queue shows it. */
  async function reportById(id: string): Promise<Report> {
    const found = await moderation.findReport(id);
    const reporter = found && (await data.users.findUserById(found.reporter_id));
    if (!found) throw new NotFoundError('Report not found', 'ReportNotFound');
    const row = { ...found, reporter: reporter?.username ?? '' };
    return toReport(row, await previews([row]));
  }

  async function lookupUser(username: string): Promise<AdminUserInfo> {
    const user = await data.users.findUserByUsername(username);
    if (!user) throw userNotFound();
    return {
      username: user.username,
      role: user.role,
      avatar: user.avatar,
      postsCount: Number(user.posts_count),
      createdAt: user.created_at,
      suspendedAt: user.suspended_at,
    };
  }

  return {
    async report(user: AuthUser, input: ReportInput): Promise<{ id: string }> {
      const type = pick(input.targetType, REPORT_TARGET_TYPES, 'targetType', 'InvalidTargetType');
      const reason = pick(input.reason, REPORT_REASONS, 'reason', 'InvalidReason');
      const note = readNote(input.note);
      if (typeof input.targetId !== 'string' || input.targetId.length === 0)
        throw new InvalidError('targetId is required', 'InvalidTargetId');
      const target = await findTarget(user, type, input.targetId);
      if (!target) throw targetMissing(type);
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
      const targets = await previews(rows);
      return rows.map((r) => toReport(r, targets));
    },

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
      if (action === 'suspendUser' && author && (author.id === admin.id || author.role === 'admin'))
        throw new ForbiddenError('An admin cannot be suspended', 'CannotSuspendAdmin');
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

    /** Suspends the account: its sessions end at once on every instance, sign-in is refused. */
    async suspend(admin: AuthUser, username: string, rawNote: unknown): Promise<AdminUserInfo> {
      const note = readNote(rawNote);
      const user = await data.users.findUserByUsername(username);
      if (!user) throw userNotFound();
      const now = nowIso();
      await data.transaction(async (trx) => {
        if (!(await suspendIn(trx, admin, user, now)))
          throw new ConflictError('This account is already suspended', 'AlreadySuspended');
        const subject = { type: 'user' as const, id: user.id, authorId: user.id, label: user.username };
        await trx.moderation.insertLog(logEntry(admin, 'suspendUser', subject, note, now));
      });
      publish({ type: 'UserSuspended', userId: user.id });
      return lookupUser(user.username);
    },

    async unsuspend(admin: AuthUser, username: string, rawNote: unknown): Promise<AdminUserInfo> {
      const note = readNote(rawNote);
      const user = await data.users.findUserByUsername(username);
      if (!user) throw userNotFound();
      await data.transaction(async (trx) => {
        if (!(await trx.moderation.setSuspended(user.id, null)))
          throw new ConflictError('This account is not suspended', 'NotSuspended');
        const subject = { type: 'user' as const, id: user.id, authorId: user.id, label: user.username };
        await trx.moderation.insertLog(logEntry(admin, 'unsuspendUser', subject, note, nowIso()));
      });
      publish({ type: 'UserUnsuspended', userId: user.id });
      return lookupUser(user.username);
    },

    lookup: lookupUser,

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

export type ModerationService = ReturnType<typeof moderationService>;
