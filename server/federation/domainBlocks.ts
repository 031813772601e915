/**
 * Domain blocks (issue 32, item 6): an admin silences or suspends a whole server. A suspended
 * domain's activities are refused at the inbox (403) and nothing is delivered to it; a silenced
 * domain's people are hidden from those who do not follow them. Every change is logged in the
 * admin log and published (`DomainBlocksChanged`): each instance's cached list forgets it through
 * the invalidation table, so `severityOf` (asked on every inbox POST and delivery) reads memory.
 */
import type { Kysely } from 'kysely';
import type { DomainBlock, DomainSeverity } from '../../lib/types';
import type { CacheRegistry } from '../cache/registry';
import { bindQueries, transactional } from '../db/repository';
import type { Database, DomainAction, FederationDomainBlocksTable, Queryable } from '../db/schema';
import { NotFoundError } from '../domain/errors';
import { newId, nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import { logEntry } from '../moderation/adminLog';
import { pick, readNote } from '../moderation/input';
import { moderationRepository } from '../moderation/repository';
import { domainCandidates, normalizeDomain, severityIn } from './domainName';

export const DOMAIN_SEVERITIES: readonly DomainSeverity[] = ['silence', 'suspend'];

const allBlocks = (db: Queryable) => db.selectFrom('federation_domain_blocks').selectAll().orderBy('domain').execute();

const findBlock = (db: Queryable, domain: string) =>
  db.selectFrom('federation_domain_blocks').selectAll().where('domain', '=', domain).executeTakeFirst();

async function upsertBlock(db: Queryable, row: FederationDomainBlocksTable): Promise<void> {
  await db
    .insertInto('federation_domain_blocks')
    .values(row)
    .onConflict((oc) => oc.column('domain').doUpdateSet({ severity: row.severity, updated_at: row.updated_at }))
    .execute();
}

async function deleteBlock(db: Queryable, domain: string): Promise<boolean> {
  const result = await db.deleteFrom('federation_domain_blocks').where('domain', '=', domain).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** People elsewhere whose host may fall under `domain` (itself, a port of it, a subdomain); its form has no `%` or `_`. */
const peopleUnder = (db: Queryable, domain: string) =>
  db
    .selectFrom('users')
    .select(['id', 'domain', 'suspended_at', 'domain_suspended', 'domain_silenced'])
    .where('domain', 'like', `%${domain}%`)
    .execute();

async function setDomainSuspended(db: Queryable, ids: string[], suspendedAt: string | null): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('users')
    .set({ suspended_at: suspendedAt, domain_suspended: suspendedAt === null ? 0 : 1 })
    .where('id', 'in', ids)
    .execute();
}

async function setDomainSilenced(db: Queryable, ids: string[], silenced: boolean): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('users')
    .set({ domain_silenced: silenced ? 1 : 0 })
    .where('id', 'in', ids)
    .execute();
}

export const domainBlocksRepository = bindQueries({
  allBlocks,
  findBlock,
  upsertBlock,
  deleteBlock,
  peopleUnder,
  setDomainSuspended,
  setDomainSilenced,
});

type DomainBlocksData = ReturnType<typeof domainBlocksRepository>;

/**
 * After a block of `domain` changed: its people are suspended while a `suspend` block covers their
 * host (as Mastodon suspends a suspended domain's accounts), and given back when none does any
 * more. Those an admin suspended one by one (`domain_suspended` 0) stay as they are. They are
 * `domain_silenced` while their host's strictest block is a `silence` (the visibility rule reads it).
 */
async function applyBlocks(blocks: DomainBlocksData, domain: string, now: string): Promise<void> {
  const bySeverity = new Map((await blocks.allBlocks()).map((b) => [b.domain, b.severity] as const));
  const suspend: string[] = [];
  const restore: string[] = [];
  const silence: string[] = [];
  const unsilence: string[] = [];
  for (const person of await blocks.peopleUnder(domain)) {
    if (!domainCandidates(person.domain!).includes(domain)) continue;
    const severity = severityIn(bySeverity, person.domain!);
    if (severity === 'suspend' && person.suspended_at === null) suspend.push(person.id);
    if (severity !== 'suspend' && Number(person.domain_suspended) === 1) restore.push(person.id);
    if ((severity === 'silence') !== (Number(person.domain_silenced) === 1))
      (severity === 'silence' ? silence : unsilence).push(person.id);
  }
  await blocks.setDomainSuspended(suspend, now);
  await blocks.setDomainSuspended(restore, null);
  await blocks.setDomainSilenced(silence, true);
  await blocks.setDomainSilenced(unsilence, false);
}

const blockOf = (row: FederationDomainBlocksTable): DomainBlock => ({
  domain: row.domain,
  severity: row.severity,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export interface DomainBlocksCache {
  /** Forgets the kept list: the next look reads the table again. */
  forget(): void;
}

interface Kept {
  rows: FederationDomainBlocksTable[];
  bySeverity: Map<string, DomainSeverity>;
}

export interface DomainBlocksInput {
  domain?: unknown;
  severity?: unknown;
  note?: unknown;
}

export function domainBlocksService(
  db: Kysely<Database>,
  { publish, ttlMs, caches }: { publish: PublishEvent; ttlMs: number; caches: CacheRegistry },
) {
  const data = transactional(db, (q) => ({ blocks: domainBlocksRepository(q), moderation: moderationRepository(q) }));
  // One entry, the whole list: asked on every inbox POST and delivery, read once per change.
  const kept = caches.keyed<'all', Kept>({
    name: 'domain_blocks',
    ttlMs,
    max: 1,
    async load() {
      const rows = await data.blocks.allBlocks();
      return new Map([['all', { rows, bySeverity: new Map(rows.map((r) => [r.domain, r.severity] as const)) }]]);
    },
  });
  const load = async () => (await kept.get('all'))!;

  const changed = (domain: string) => publish({ type: 'DomainBlocksChanged', domain });

  return {
    cache: { forget: () => kept.forget('all') } satisfies DomainBlocksCache,

    /** A server's severity: the strictest block of its host, the host without port, or a parent domain. */
    async severityOf(host: string): Promise<DomainSeverity | null> {
      return severityIn((await load()).bySeverity, host);
    },

    async list(): Promise<DomainBlock[]> {
      return (await load()).rows.map(blockOf);
    },

    /** Blocks the domain, or changes its severity; `created` when it was not blocked before. */
    async block(admin: AuthUser, input: DomainBlocksInput): Promise<{ block: DomainBlock; created: boolean }> {
      const domain = normalizeDomain(input.domain);
      const severity = pick(input.severity, DOMAIN_SEVERITIES, 'severity', 'InvalidSeverity');
      const note = readNote(input.note);
      const now = nowIso();
      const outcome = await data.transaction(async (trx) => {
        const before = await trx.blocks.findBlock(domain);
        if (before?.severity === severity) return { row: before, created: false, changed: false };
        const row = {
          id: before?.id ?? newId(),
          domain,
          severity,
          created_at: before?.created_at ?? now,
          updated_at: now,
        };
        await trx.blocks.upsertBlock(row);
        await applyBlocks(trx.blocks, domain, now);
        const action: DomainAction = severity === 'suspend' ? 'suspendDomain' : 'silenceDomain';
        const subject = { type: 'domain' as const, id: row.id, label: domain };
        await trx.moderation.insertLog(logEntry(admin, action, subject, note, now));
        return { row: (await trx.blocks.findBlock(domain)) ?? row, created: !before, changed: true };
      });
      if (outcome.changed) changed(domain);
      return { block: blockOf(outcome.row), created: outcome.created };
    },

    async unblock(admin: AuthUser, rawDomain: string, rawNote: unknown): Promise<void> {
      const domain = normalizeDomain(rawDomain);
      const note = readNote(rawNote);
      await data.transaction(async (trx) => {
        const before = await trx.blocks.findBlock(domain);
        if (!before || !(await trx.blocks.deleteBlock(domain)))
          throw new NotFoundError('This domain is not blocked', 'DomainNotBlocked');
        await applyBlocks(trx.blocks, domain, nowIso());
        const subject = { type: 'domain' as const, id: before.id, label: domain };
        await trx.moderation.insertLog(logEntry(admin, 'unblockDomain', subject, note, nowIso()));
      });
      changed(domain);
    },
  };
}

export type DomainBlocksService = ReturnType<typeof domainBlocksService>;
