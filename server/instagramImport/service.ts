/**
 * Issue 76, item 1: an Instagram archive imported as posts. The upload is kept as a file (the
 * route streams it there), scanned (`archive.ts`: refused, and deleted, when hostile), and its posts
 * kept as the job's rows for the person to pick from. Once started, the worker (`accountLists/worker.ts`,
 * the same lease-held jobs as the list imports) makes the picked posts one by one: each photo through
 * the uploads' pipeline and limits (`media.upload`), then the post at its original date with its
 * caption (`captions.ts`), under the id its row chose, so a run after a restart makes none twice.
 * The archive is deleted when the job ends or is cancelled.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { InstagramFoundPost, InstagramImport } from '../../lib/types';
import type { AuthUser } from '../domain/types';
import { ConflictError, DomainError, InvalidError, NotFoundError, TooManyAttemptsError } from '../domain/errors';
import { idAt, newId, nowIso } from '../domain/ids';
import type { MediaService } from '../media/service';
import type { PostWrites } from '../posts/writes';
import { type ArchiveLimits, openPhotos, scanArchive } from './archive';
import { postTextOf } from './captions';
import type { FoundRow, InstagramImportsRepository, InstagramJob } from './repository';

export interface InstagramImportDeps {
  repo: InstagramImportsRepository;
  media: Pick<MediaService, 'upload' | 'removeUnused'>;
  posts: Pick<PostWrites, 'importArchived'>;
  /** The owner of a job, as the services' viewer (a job runs with no session). */
  ownerOf: (userId: string) => Promise<AuthUser | null>;
  /** The folder archives are kept in while their job lasts. */
  dir: string;
  limits: ArchiveLimits;
  /** Tells the worker a job is waiting. */
  wake: () => void;
}

const importNotFound = () => new NotFoundError('Import not found', 'ImportNotFound');

export function instagramImportService({ repo, media, posts, ownerOf, dir, limits, wake }: InstagramImportDeps) {
  const fileOf = (name: string) => path.join(dir, name);
  const removeArchive = (name: string | null) => (name ? rm(fileOf(name), { force: true }) : Promise.resolve());

  function progressOf(job: InstagramJob, rows: FoundRow[]): InstagramImport {
    const count = (status: FoundRow['status']) => rows.filter((r) => r.status === status).length;
    const found: InstagramFoundPost[] = rows.map((r) => ({
      position: r.position,
      takenAt: r.taken_at,
      caption: r.caption,
      photos: (JSON.parse(r.photos) as string[]).length,
      leftOut: r.left_out,
      status: r.status,
      error: r.error,
      postId: r.status === 'done' ? r.post_id : null,
    }));
    return {
      id: job.id,
      state: job.state,
      total: job.total,
      done: count('done'),
      failed: count('failed'),
      pending: count('pending'),
      posts: found,
      createdAt: job.created_at,
      finishedAt: job.finished_at,
    };
  }

  async function own(viewer: AuthUser, id: string): Promise<InstagramJob> {
    const job = await repo.findJob(id);
    if (!job || job.user_id !== viewer.id) throw importNotFound();
    return job;
  }

  const progress = async (job: InstagramJob) => progressOf(job, await repo.rows(job.id));

  /** One post: its photos uploaded, then the post; the uploads go again when the post is not made. */
  async function importOne(owner: AuthUser, row: FoundRow, read: (name: string) => Promise<Buffer>): Promise<void> {
    const uploaded: string[] = [];
    try {
      const photos = [];
      for (const name of JSON.parse(row.photos) as string[]) {
        const result = await media.upload(owner.id, 'post', await read(name));
        uploaded.push(result.public_id);
        photos.push({ image: result.secure_url, media_id: result.public_id, alt: '', crop: '' });
      }
      const { message, tags } = postTextOf(row.caption);
      const { created } = await posts.importArchived(owner, {
        id: row.post_id,
        message,
        tags,
        photos,
        createdAt: row.taken_at,
      });
      if (!created) await media.removeUnused(uploaded); // made by an earlier run: these are spare
    } catch (error) {
      await media.removeUnused(uploaded).catch(() => {});
      throw error;
    }
  }

  return {
    /**
     * The archive just stored as `name` in the folder: scanned, and its posts kept for the pick.
     * Refused (and deleted) when hostile or holding no posts; one open import per person (409).
     */
    async fromArchive(viewer: AuthUser, name: string): Promise<InstagramImport> {
      try {
        if (await repo.openJobOf(viewer.id))
          throw new ConflictError(
            'An Instagram import is already waiting or running: finish or cancel it first',
            'ImportRunning',
          );
        const found = await scanArchive(fileOf(name), limits);
        const job: InstagramJob = {
          id: newId(),
          user_id: viewer.id,
          state: 'ready',
          archive: name,
          total: 0,
          claimed_until: null,
          created_at: nowIso(),
          finished_at: null,
        };
        const rows = found.map((post, position) => ({
          position,
          taken_at: post.takenAt,
          caption: post.caption,
          photos: JSON.stringify(post.photos),
          left_out: post.leftOut,
          // Nothing to import when none of its photos is here.
          status: post.photos.length > 0 ? ('found' as const) : ('skipped' as const),
          error: post.photos.length > 0 ? null : 'None of its photos is in the archive',
          post_id: idAt(Date.parse(post.takenAt)),
        }));
        await repo.insertJob(job, rows);
        return await progress(job);
      } catch (error) {
        await removeArchive(name);
        throw error;
      }
    },

    /** Starts the import of the posts at `positions` (the others are skipped). */
    async start(viewer: AuthUser, id: string, positions: unknown): Promise<InstagramImport> {
      if (!Array.isArray(positions) || positions.some((p) => !Number.isInteger(p)))
        throw new InvalidError('positions must be a list of the posts’ positions', 'InvalidPositions');
      const job = await own(viewer, id);
      if (job.state !== 'ready') throw new ConflictError('This import has already started', 'ImportStarted');
      if ((await repo.start(id, positions as number[])) === 0) {
        await removeArchive(job.archive);
        await repo.end(id, 'finished', nowIso());
      } else wake();
      return progress((await repo.findJob(id))!);
    },

    /** Stops the import: posts made stay, the others are skipped, the archive goes. */
    async cancel(viewer: AuthUser, id: string): Promise<InstagramImport> {
      const job = await own(viewer, id);
      if (job.state === 'ready' || job.state === 'running') {
        await removeArchive(job.archive);
        await repo.end(id, 'cancelled', nowIso());
      }
      return progress((await repo.findJob(id))!);
    },

    progress: async (viewer: AuthUser, id: string) => progress(await own(viewer, id)),

    /** The person's last import, or null. */
    async latest(viewer: AuthUser): Promise<InstagramImport | null> {
      const job = await repo.latestJob(viewer.id);
      return job ? progress(job) : null;
    },

    /** The worker's part: every picked post left, `keepHolding` after each; then the archive goes. */
    async runJob(jobId: string, keepHolding: () => Promise<void>): Promise<void> {
      const job = await repo.findJob(jobId);
      if (!job || job.state !== 'running') return;
      const owner = await ownerOf(job.user_id);
      const rows = await repo.pendingRows(jobId);
      if (owner && job.archive && rows.length > 0) {
        const wanted = new Set(rows.flatMap((r) => JSON.parse(r.photos) as string[]));
        let archive: Awaited<ReturnType<typeof openPhotos>> | null = null;
        let unreadable: string | null = null;
        try {
          archive = await openPhotos(fileOf(job.archive), wanted, limits);
        } catch (error) {
          if (!(error instanceof DomainError) && (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          unreadable = error instanceof DomainError ? error.message : 'The archive is gone';
        }
        try {
          for (const row of rows) {
            // Cancelled meanwhile: stop between two posts.
            if ((await repo.findJob(jobId))?.state !== 'running') return;
            let outcome: string | null = unreadable;
            if (archive && outcome === null)
              try {
                await importOne(owner, row, archive.read);
              } catch (error) {
                // The image queue full (the person's own uploads meanwhile): the job goes on at the next poll.
                if (!(error instanceof DomainError) || error instanceof TooManyAttemptsError) throw error;
                outcome = error.message;
              }
            await repo.settleRow(jobId, row.position, outcome);
            await keepHolding();
          }
        } finally {
          archive?.close();
        }
      } else
        for (const row of rows)
          await repo.settleRow(jobId, row.position, owner ? 'The archive is gone' : 'The account is gone');
      // The file first: a job seen ended has no archive left (one found gone fails its rows, none left here).
      await removeArchive(job.archive);
      await repo.end(jobId, 'finished', nowIso());
    },
  };
}

export type InstagramImportService = ReturnType<typeof instagramImportService>;
