/** The queries of archive imports, Instagram's and Posts exports (issue 76): the jobs, and the posts found in each archive. */
import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../db/database';
import type { Database, InstagramImportPostsTable, InstagramImportsTable } from '../db/schema';

export type InstagramJob = Omit<InstagramImportsTable, 'total' | 'kind'> & {
  total: number;
  kind: 'instagram' | 'posts';
};
export type FoundRow = Omit<InstagramImportPostsTable, 'left_out'> & { left_out: number };

export function instagramImportsRepository(db: Kysely<Database>) {
  const postgres = dialectOf(db) === 'postgres';

  return {
    /** The job and the posts found, in one transaction. */
    async insertJob(job: InstagramJob, rows: Omit<FoundRow, 'import_id'>[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('instagram_imports').values(job).execute();
        // In slices: SQLite takes at most 32766 parameters in one statement.
        for (let i = 0; i < rows.length; i += 200)
          await trx
            .insertInto('instagram_import_posts')
            .values(rows.slice(i, i + 200).map((r) => ({ ...r, import_id: job.id })))
            .execute();
      });
    },

    findJob: (id: string) =>
      db.selectFrom('instagram_imports').selectAll().where('id', '=', id).executeTakeFirst() as Promise<
        InstagramJob | undefined
      >,

    latestJob: (userId: string) =>
      db
        .selectFrom('instagram_imports')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst() as Promise<InstagramJob | undefined>,

    /** The person's job waiting for its pick or running, if any. */
    openJobOf: (userId: string) =>
      db
        .selectFrom('instagram_imports')
        .select('id')
        .where('user_id', '=', userId)
        .where('state', 'in', ['ready', 'running'])
        .executeTakeFirst(),

    rows: (jobId: string) =>
      db
        .selectFrom('instagram_import_posts')
        .selectAll()
        .where('import_id', '=', jobId)
        .orderBy('position')
        .execute() as Promise<FoundRow[]>,

    pendingRows: (jobId: string) =>
      db
        .selectFrom('instagram_import_posts')
        .selectAll()
        .where('import_id', '=', jobId)
        .where('status', '=', 'pending')
        .orderBy('position')
        .execute() as Promise<FoundRow[]>,

    /** The pick: the rows at `positions` (with photos) wait for the worker, the others are skipped. */
    async start(jobId: string, positions: number[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const picked = new Set(positions);
        const rows = await trx
          .selectFrom('instagram_import_posts')
          .select(['position', 'photos'])
          .where('import_id', '=', jobId)
          .where('status', '=', 'found')
          .execute();
        const go = rows.filter((r) => picked.has(r.position) && r.photos !== '[]').map((r) => r.position);
        if (go.length > 0)
          await trx
            .updateTable('instagram_import_posts')
            .set({ status: 'pending' })
            .where('import_id', '=', jobId)
            .where('position', 'in', go)
            .execute();
        await trx
          .updateTable('instagram_import_posts')
          .set({ status: 'skipped' })
          .where('import_id', '=', jobId)
          .where('status', '=', 'found')
          .execute();
        await trx
          .updateTable('instagram_imports')
          .set({ state: 'running', total: go.length, claimed_until: null })
          .where('id', '=', jobId)
          .execute();
        return go.length;
      });
    },

    async settleRow(jobId: string, position: number, error: string | null): Promise<void> {
      await db
        .updateTable('instagram_import_posts')
        .set({ status: error === null ? 'done' : 'failed', error: error?.slice(0, 200) ?? null })
        .where('import_id', '=', jobId)
        .where('position', '=', position)
        .where('status', '=', 'pending')
        .execute();
    },

    /** Ends the job (finished or cancelled): its archive is gone, nobody holds it. */
    async end(jobId: string, state: 'finished' | 'cancelled', at: string): Promise<void> {
      await db
        .updateTable('instagram_imports')
        .set({ state, finished_at: at, claimed_until: null, archive: null })
        .where('id', '=', jobId)
        .execute();
      if (state === 'cancelled')
        await db
          .updateTable('instagram_import_posts')
          .set({ status: 'skipped' })
          .where('import_id', '=', jobId)
          .where('status', 'in', ['found', 'pending'])
          .execute();
    },

    /** A running job nobody holds (or whose holder's lease ran out), held now until `until`. */
    async claim(now: number, until: number): Promise<string | undefined> {
      const free = sql`
        SELECT id FROM instagram_imports
        WHERE state = 'running' AND (claimed_until IS NULL OR claimed_until < ${now})
        ORDER BY id LIMIT 1`;
      const statement = sql<{ id: string }>`
        UPDATE instagram_imports SET claimed_until = ${until}
        WHERE id = (${free}${postgres ? sql` FOR UPDATE SKIP LOCKED` : sql``})
        RETURNING id`;
      return (await statement.execute(db)).rows[0]?.id;
    },

    async extendClaim(jobId: string, until: number): Promise<void> {
      await db.updateTable('instagram_imports').set({ claimed_until: until }).where('id', '=', jobId).execute();
    },

    async release(jobId: string): Promise<void> {
      await db.updateTable('instagram_imports').set({ claimed_until: null }).where('id', '=', jobId).execute();
    },
  };
}

export type InstagramImportsRepository = ReturnType<typeof instagramImportsRepository>;
