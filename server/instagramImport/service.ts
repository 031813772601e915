/**
 * Issue 76, items 1 and 3: an Instagram archive, or another Posts instance's export, imported as
 * posts. The upload is kept as a file (the route streams it there), scanned (`archive.ts`: refused,
 * and deleted, when hostile), and its posts kept as the job's rows for the person to pick from. Once started, the worker (`accountLists/worker.ts`,
 * the same lease-held jobs as the list imports) makes the picked posts one by one: each photo through
 * the uploads' pipeline and limits (`media.upload`), then the post at its original date with its
 * caption (`captions.ts`) or, from a Posts export, the post as it was there (`postsExport.ts`: its
 * message, tags, audience, content warning and alt texts, held to the post rules), under the id its
 * row chose, so a run after a restart makes none twice. A Posts export's profile settings are
 * applied when the import starts, if asked. The archive is deleted when the job ends or is cancelled.
 */
import type { ImportSettings, InstagramFoundPost, InstagramImport } from '../../lib/types';
import type { AuthUser } from '../domain/types';
import { ConflictError, DomainError, InvalidError, NotFoundError, TooManyAttemptsError } from '../domain/errors';
import { idAt, newId, nowIso } from '../domain/ids';
import type { MediaService } from '../media/service';
import { readAudience, readImageText, readMessage, readPostTags } from '../posts/input';
import type { PostWrites } from '../posts/writes';
import { type ArchiveLimits, openPhotos, scanArchive } from './archive';
import { archivePath, removeArchives } from './archiveFiles';
import { postTextOf } from './captions';
import type { PostDetails } from './found';
import type { FoundRow, InstagramImportsRepository, InstagramJob } from './repository';

export interface InstagramImportDeps {
  repo: InstagramImportsRepository;
  media: Pick<MediaService, 'upload' | 'removeUnused'>;
  posts: Pick<PostWrites, 'importArchived'>;
  /** Applies a Posts export's profile settings (the profile's own rules: `PATCH /api/users/updateProfile`). */
  profile: { updateProfile(viewer: AuthUser, input: ImportSettings): Promise<unknown> };
  /** The owner of a job, as the services' viewer (a job runs with no session). */
  ownerOf: (userId: string) => Promise<AuthUser | null>;
  /** The folder archives are kept in while their job lasts. */
  dir: string;
  limits: ArchiveLimits;
  /** Tells the worker a job is waiting. */
  wake: () => void;
}

const importNotFound = () => new NotFoundError('Import not found', 'ImportNotFound');

/**
 * A row's post, but for its photos: an Instagram caption made a message and tags, or a Posts
 * export's post held to the post rules (an InvalidError fails the row with the rule's message).
 */
function postOfRow(row: FoundRow) {
  if (row.details === null)
    return { ...postTextOf(row.caption), from: 'instagram' as const, photoText: () => ({ alt: '', crop: '' }) };
  const details = JSON.parse(row.details) as PostDetails;
  const message = readMessage(row.caption);
  const { sensitive, spoiler } = readImageText({ sensitive: details.sensitive, spoiler: details.spoiler });
  const alts = details.photos.map((photo) => readImageText({ alt: photo.alt }).alt ?? '');
  return {
    message,
    tags: readPostTags(details.tags, message),
    audience: details.audience === null ? undefined : readAudience(details.audience),
    sensitive: sensitive === 1,
    spoiler: spoiler ?? '',
    from: 'posts' as const,
    photoText: (i: number) => ({ alt: alts[i] ?? '', crop: details.photos[i]?.crop ?? '' }),
  };
}

export function instagramImportService({
  repo,
  media,
  posts,
  profile,
  ownerOf,
  dir,
  limits,
  wake,
}: InstagramImportDeps) {
  const fileOf = (name: string) => archivePath(dir, name);
  const removeArchive = (name: string | null) => removeArchives(dir, name ? [name] : []);

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
      kind: job.kind,
      settings: job.settings === null ? null : (JSON.parse(job.settings) as ImportSettings),
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
    // Its text first: a post the rules refuse costs no upload.
    const { photoText, ...post } = postOfRow(row);
    const uploaded: string[] = [];
    try {
      const photos = [];
      for (const [i, name] of (JSON.parse(row.photos) as string[]).entries()) {
        const result = await media.upload(owner.id, 'post', await read(name));
        uploaded.push(result.public_id);
        photos.push({ image: result.secure_url, media_id: result.public_id, ...photoText(i) });
      }
      const { created } = await posts.importArchived(owner, {
        ...post,
        id: row.post_id,
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
     * The archive just stored as `name` in the folder: scanned (its kind told from its contents),
     * and its posts (and a Posts export's settings) kept for the pick.
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
          kind: found.kind,
          settings: found.settings && JSON.stringify(found.settings),
          state: 'ready',
          archive: name,
          total: 0,
          claimed_until: null,
          created_at: nowIso(),
          finished_at: null,
        };
        const rows = found.posts.map((post, position) => ({
          position,
          taken_at: post.takenAt,
          caption: post.caption,
          photos: JSON.stringify(post.photos),
          left_out: post.leftOut,
          // Nothing to import when none of its photos is here.
          status: post.photos.length > 0 ? ('found' as const) : ('skipped' as const),
          error: post.photos.length > 0 ? null : 'None of its photos is in the archive',
          post_id: idAt(Date.parse(post.takenAt)),
          details: post.details ? JSON.stringify(post.details) : null,
        }));
        await repo.insertJob(job, rows);
        return await progress(job);
      } catch (error) {
        await removeArchive(name);
        throw error;
      }
    },

    /**
     * Starts the import of the posts at `positions` (the others are skipped); `settings: true`
     * applies a Posts export's profile settings first (refused by the profile's rules: nothing starts).
     */
    async start(viewer: AuthUser, id: string, positions: unknown, settings: unknown = false): Promise<InstagramImport> {
      if (!Array.isArray(positions) || positions.some((p) => !Number.isInteger(p)))
        throw new InvalidError('positions must be a list of the posts’ positions', 'InvalidPositions');
      if (typeof settings !== 'boolean') throw new InvalidError('settings must be true or false', 'InvalidSettings');
      const job = await own(viewer, id);
      if (job.state !== 'ready') throw new ConflictError('This import has already started', 'ImportStarted');
      if (settings && job.settings !== null)
        await profile.updateProfile(viewer, JSON.parse(job.settings) as ImportSettings);
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
