/** The queries of Mastodon CSV lists: a person's follows, blocks and mutes, and the import jobs. */
import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../db/database';
import type { AccountListImportsTable, Database } from '../db/schema';
import type { ListKind } from './csv';

export type ImportJob = Omit<AccountListImportsTable, 'pruned'> & { pruned: number };

export interface ImportCounts {
  done: number;
  failed: number;
  pending: number;
}

export function accountListsRepository(db: Kysely<Database>) {
  const postgres = dialectOf(db) === 'postgres';

  return {
    /** The people of one list, newest first: their username and, for people elsewhere, their domain. */
    async people(kind: ListKind, userId: string): Promise<{ username: string; domain: string | null }[]> {
      if (kind === 'follows')
        return db
          .selectFrom('follows')
          .innerJoin('users', 'users.id', 'follows.followee_id')
          .select(['users.username', 'users.domain'])
          .where('follows.follower_id', '=', userId)
          .orderBy('follows.id', 'desc')
          .execute();
      return db
        .selectFrom(kind)
        .innerJoin('users', 'users.id', `${kind}.target_id`)
        .select(['users.username', 'users.domain'])
        .where(`${kind}.user_id`, '=', userId)
        .orderBy(`${kind}.id`, 'desc')
        .execute();
    },

    /** The job and its rows in one transaction, held by the caller until `release`. */
    async insertJob(job: ImportJob, rows: { line: number; address: string }[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('account_list_imports').values(job).execute();
        // In slices: SQLite takes at most 32766 parameters in one statement.
        for (let i = 0; i < rows.length; i += 500) {
          const slice = rows.slice(i, i + 500).map((r) => ({ ...r, import_id: job.id, status: 'pending' as const }));
          await trx.insertInto('account_list_import_rows').values(slice).execute();
        }
      });
    },

    findJob: (id: string) =>
      db.selectFrom('account_list_imports').selectAll().where('id', '=', id).executeTakeFirst() as Promise<
        ImportJob | undefined
      >,

    runningJobOf: (userId: string) =>
      db
        .selectFrom('account_list_imports')
        .select('id')
        .where('user_id', '=', userId)
        .where('state', '=', 'running')
        .executeTakeFirst(),

    latestJobs: (userId: string, limit: number) =>
      db
        .selectFrom('account_list_imports')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute() as Promise<ImportJob[]>,

    async counts(jobId: string): Promise<ImportCounts> {
      const rows = await db
        .selectFrom('account_list_import_rows')
        .select(['status', sql<number | string>`count(*)`.as('n')])
        .where('import_id', '=', jobId)
        .groupBy('status')
        .execute();
      const counts = { done: 0, failed: 0, pending: 0 };
      for (const r of rows) counts[r.status] = Number(r.n);
      return counts;
    },

    failures: (jobId: string, limit: number) =>
      db
        .selectFrom('account_list_import_rows')
        .select(['line', 'address', 'error'])
        .where('import_id', '=', jobId)
        .where('status', '=', 'failed')
        .orderBy('line')
        .limit(limit)
        .execute(),

    /** Every address of the file (overwrite keeps these). */
    addresses: (jobId: string) =>
      db
        .selectFrom('account_list_import_rows')
        .select('address')
        .where('import_id', '=', jobId)
        .execute()
        .then((rows) => rows.map((r) => r.address)),

    /** Pending rows after line `after`, in the file's order. */
    pendingRows: (jobId: string, after: number, limit: number) =>
      db
        .selectFrom('account_list_import_rows')
        .select(['line', 'address'])
        .where('import_id', '=', jobId)
        .where('status', '=', 'pending')
        .where('line', '>', after)
        .orderBy('line')
        .limit(limit)
        .execute(),

    async settleRow(jobId: string, line: number, error: string | null): Promise<void> {
      await db
        .updateTable('account_list_import_rows')
        .set({ status: error === null ? 'done' : 'failed', error: error?.slice(0, 200) ?? null })
        .where('import_id', '=', jobId)
        .where('line', '=', line)
        .where('status', '=', 'pending')
        .execute();
    },

    async markPruned(jobId: string): Promise<void> {
      await db.updateTable('account_list_imports').set({ pruned: 1 }).where('id', '=', jobId).execute();
    },

    async finish(jobId: string, at: string): Promise<void> {
      await db
        .updateTable('account_list_imports')
        .set({ state: 'finished', finished_at: at, claimed_until: null })
        .where('id', '=', jobId)
        .execute();
    },

    /** A running job nobody holds (or whose holder's lease ran out), held now until `until`. */
    async claim(now: number, until: number): Promise<string | undefined> {
      const free = sql`
        SELECT id FROM account_list_imports
        WHERE state = 'running' AND (claimed_until IS NULL OR claimed_until < ${now})
        ORDER BY id LIMIT 1`;
      const statement = sql<{ id: string }>`
        UPDATE account_list_imports SET claimed_until = ${until}
        WHERE id = (${free}${postgres ? sql` FOR UPDATE SKIP LOCKED` : sql``})
        RETURNING id`;
      return (await statement.execute(db)).rows[0]?.id;
    },

    async extendClaim(jobId: string, until: number): Promise<void> {
      await db.updateTable('account_list_imports').set({ claimed_until: until }).where('id', '=', jobId).execute();
    },

    async release(jobId: string): Promise<void> {
      await db.updateTable('account_list_imports').set({ claimed_until: null }).where('id', '=', jobId).execute();
    },
  };
}

export type AccountListsRepository = ReturnType<typeof accountListsRepository>;
