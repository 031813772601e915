/**
 * An admin hides a post or a tag from the trends, or shows it again (issue 73): a row of
 * `explore_hidden` and a line of the admin log in one transaction, then `TrendsChanged` so that
 * every instance works its trends out again. Hiding is not removing: the post stays where it was.
 */
import { normalizeTag, tagError, tagKey } from '../../lib/validation';
import type { Db } from '../db/database';
import { transactional } from '../db/repository';
import { InvalidError, NotFoundError } from '../domain/errors';
import { isUuid, nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import { logEntry } from '../moderation/adminLog';
import { moderationRepository } from '../moderation/repository';
import { exploreRepository } from './repository';

export type HiddenKind = 'post' | 'tag';

export interface HiddenEntry {
  kind: HiddenKind;
  /** The post's id, or the tag's key. */
  subject: string;
  createdAt: string;
}

/** The start of a post's message, as the admin log names posts. */
const LABEL_MAX = 80;

export function trendHiding({ db, publish }: { db: Db; publish: PublishEvent }) {
  const data = transactional(db.kysely, (q) => ({
    explore: exploreRepository(q),
    moderation: moderationRepository(q),
  }));

  /** The subject's key and the log's label: the post must exist, the tag must be one. */
  async function subjectOf(kind: HiddenKind, raw: string): Promise<{ subject: string; label: string }> {
    if (kind === 'tag') {
      const tag = normalizeTag(raw);
      const error = tagError(tag);
      if (error) throw new InvalidError(error, 'InvalidTag');
      return { subject: tagKey(tag), label: `#${tagKey(tag)}` };
    }
    const post = isUuid(raw)
      ? await db.kysely.selectFrom('posts').select(['id', 'message']).where('id', '=', raw).executeTakeFirst()
      : undefined;
    if (!post) throw new NotFoundError('Post not found', 'PostNotFound');
    return { subject: post.id, label: post.message.slice(0, LABEL_MAX) || post.id };
  }

  return {
    async hide(admin: AuthUser, kind: HiddenKind, raw: string): Promise<HiddenEntry> {
      const { subject, label } = await subjectOf(kind, raw);
      const now = nowIso();
      await data.transaction(async (trx) => {
        const id = await trx.explore.hide(kind, subject, now);
        const target = { type: kind, id: kind === 'post' ? subject : id, label };
        await trx.moderation.insertLog(logEntry(admin, 'hideFromTrends', target, '', now));
      });
      publish({ type: 'TrendsChanged' });
      return { kind, subject, createdAt: now };
    },

    /** Shows it again; 404 when it was not hidden. */
    async show(admin: AuthUser, kind: HiddenKind, raw: string): Promise<void> {
      const subject = kind === 'tag' ? tagKey(normalizeTag(raw)) : raw;
      const now = nowIso();
      await data.transaction(async (trx) => {
        const id = await trx.explore.hiddenId(kind, subject);
        if (id === null || !(await trx.explore.unhide(kind, subject)))
          throw new NotFoundError(`This ${kind} is not hidden from the trends`, 'NotHidden');
        const label = kind === 'tag' ? `#${subject}` : subject;
        const target = { type: kind, id: kind === 'post' ? subject : id, label };
        await trx.moderation.insertLog(logEntry(admin, 'showInTrends', target, '', now));
      });
      publish({ type: 'TrendsChanged' });
    },

    /** What is hidden, newest first (at most 1,000). */
    async list(): Promise<HiddenEntry[]> {
      const rows = await data.explore.hiddenList(1_000);
      return rows.map((r) => ({ kind: r.kind, subject: r.subject, createdAt: r.created_at }));
    },
  };
}

export type TrendHiding = ReturnType<typeof trendHiding>;
