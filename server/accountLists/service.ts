/**
 * Issue 76, item 2: follows, blocks and mutes in and out as Mastodon's CSV lists. An import is a
 * job in the database: people of this instance are followed (blocked, muted) while the upload is
 * answered; people elsewhere are looked up through WebFinger by the worker (`worker.ts`), row by
 * row, each row's outcome kept. Every change goes through the users and safety services, so the
 * rules (no following someone blocked, the events, federation's Follow) are theirs.
 */
import { handleOf } from '../../lib/handles';
import type { ListImport, ListImportFailure } from '../../lib/types';
import type { AuthUser } from '../domain/types';
import { ConflictError, DomainError, NotFoundError } from '../domain/errors';
import { newId, nowIso } from '../domain/ids';
import type { SafetyService } from '../safety/service';
import type { UsersService } from '../users/service';
import { type ListKind, looksLikeAddress, readList, writeList } from './csv';
import type { AccountListsRepository, ImportJob } from './repository';

/** How long the request, or a worker, holds a job before another may take it over. */
export const IMPORT_LEASE_MS = 5 * 60_000;
const FAILURES_SHOWN = 50;

export interface AccountListsDeps {
  repo: AccountListsRepository;
  users: Pick<UsersService, 'follow' | 'unfollow'>;
  safety: Pick<SafetyService, 'block' | 'unblock' | 'mute' | 'unmute'>;
  /** The owner of a job, as the services' viewer (a job runs with no session). */
  ownerOf: (userId: string) => Promise<AuthUser | null>;
  /** Someone elsewhere by `name@host` (WebFinger, then their actor), kept here; null when federation is off. */
  lookUpRemote: ((address: string) => Promise<{ username: string } | null>) | null;
  /** The host other servers know this one by (`name@host` of its people). */
  ownHost: string;
  /** Tells the worker a job has rows waiting. */
  wake: () => void;
  now?: () => number;
}

export function accountListsService({
  repo,
  users,
  safety,
  ownerOf,
  lookUpRemote,
  ownHost,
  wake,
  now = Date.now,
}: AccountListsDeps) {
  const ownHostKey = handleOf(`x@${ownHost}`)?.host ?? ownHost.toLowerCase();

  /** A local name (no host, or this host) or null for someone elsewhere. */
  function localName(address: string): string | null {
    if (!address.includes('@')) return address;
    const handle = handleOf(address);
    return handle && handle.host === ownHostKey ? handle.name : null;
  }

  /** One way to compare a file's address with a kept username: `name` here, `name@host` elsewhere. */
  function keyOf(address: string): string {
    const local = localName(address);
    if (local !== null) return local.toLowerCase();
    const handle = handleOf(address);
    return handle ? `${handle.name.toLowerCase()}@${handle.host}` : address.toLowerCase();
  }

  const apply = {
    follows: (viewer: AuthUser, username: string) => users.follow(viewer, username),
    blocks: (viewer: AuthUser, username: string) => safety.block(viewer, username),
    mutes: (viewer: AuthUser, username: string) => safety.mute(viewer, username),
  };
  const undo = {
    follows: (viewer: AuthUser, username: string) => users.unfollow(viewer, username),
    blocks: (viewer: AuthUser, username: string) => safety.unblock(viewer, username),
    mutes: (viewer: AuthUser, username: string) => safety.unmute(viewer, username),
  };

  /** The row's outcome: null when applied, else why not (a refusal's message). */
  async function applyRow(viewer: AuthUser, kind: ListKind, address: string, remoteToo: boolean) {
    if (!looksLikeAddress(address)) return 'Not an account address';
    let username = localName(address);
    if (username === null) {
      if (!remoteToo) return undefined; // left for the worker
      if (!handleOf(address)) return 'Not an account address';
      if (!lookUpRemote) return 'This server does not federate: people elsewhere cannot be added';
      let found: { username: string } | null;
      try {
        found = await lookUpRemote(address);
      } catch {
        found = null;
      }
      if (!found) return 'Not found on their server';
      username = found.username;
    }
    try {
      await apply[kind](viewer, username);
      return null;
    } catch (error) {
      if (error instanceof DomainError) return error.message;
      throw error;
    }
  }

  /** Overwrite: what the viewer has that the file does not name goes (once per job). */
  async function prune(viewer: AuthUser, job: ImportJob) {
    const keep = new Set((await repo.addresses(job.id)).map(keyOf));
    for (const person of await repo.people(job.kind, viewer.id)) {
      if (keep.has(keyOf(person.username))) continue;
      await undo[job.kind](viewer, person.username).catch((error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
      });
    }
    await repo.markPruned(job.id);
  }

  /** Every pending row of the job: people here only, or (the worker) everyone. */
  async function work(job: ImportJob, viewer: AuthUser, remoteToo: boolean, onRow?: () => Promise<void>) {
    if (job.mode === 'overwrite' && !job.pruned) await prune(viewer, job);
    let after = 0;
    for (;;) {
      const rows = await repo.pendingRows(job.id, after, 100);
      if (rows.length === 0) break;
      for (const row of rows) {
        after = row.line;
        const outcome = await applyRow(viewer, job.kind, row.address, remoteToo);
        if (outcome !== undefined) await repo.settleRow(job.id, row.line, outcome);
        await onRow?.();
      }
    }
  }

  async function progressOf(job: ImportJob): Promise<ListImport> {
    const counts = await repo.counts(job.id);
    const failures: ListImportFailure[] = (await repo.failures(job.id, FAILURES_SHOWN)).map((f) => ({
      line: f.line,
      address: f.address,
      error: f.error ?? '',
    }));
    return {
      id: job.id,
      type: job.kind,
      mode: job.mode,
      state: job.state,
      total: job.total,
      ...counts,
      failures,
      createdAt: job.created_at,
      finishedAt: job.finished_at,
    };
  }

  return {
    /** The viewer's list as Mastodon writes it: people here as `name@this-host`. */
    async exportList(viewer: AuthUser, kind: ListKind): Promise<string> {
      const people = await repo.people(kind, viewer.id);
      return writeList(
        kind,
        people.map((p) => (p.domain ? p.username : `${p.username}@${ownHost}`)),
      );
    },

    /**
     * Reads the file (400 when it is no list of accounts), keeps the job, applies the rows for
     * people here, and leaves the others to the worker. One import at a time per person (409).
     */
    async startImport(
      viewer: AuthUser,
      kind: ListKind,
      mode: 'merge' | 'overwrite',
      bytes: Buffer,
    ): Promise<ListImport> {
      const read = readList(kind, bytes);
      if (await repo.runningJobOf(viewer.id))
        throw new ConflictError('An import is still running: wait until it has finished', 'ImportRunning');
      // The same person twice is one row (the first line that names them).
      const seen = new Set<string>();
      const rows = read.filter((r) => {
        const key = keyOf(r.address);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      const job: ImportJob = {
        id: newId(),
        user_id: viewer.id,
        kind,
        mode,
        state: 'running',
        pruned: 0,
        total: rows.length,
        // Held by this request while it applies the local rows; a crash hands it to a worker later.
        claimed_until: now() + IMPORT_LEASE_MS,
        created_at: nowIso(),
        finished_at: null,
      };
      await repo.insertJob(job, rows);
      try {
        await work(job, viewer, false);
        if ((await repo.counts(job.id)).pending === 0) await repo.finish(job.id, nowIso());
      } finally {
        await repo.release(job.id);
      }
      // Read before the worker is woken: the answer shows what this request did.
      const progress = await progressOf((await repo.findJob(job.id))!);
      wake();
      return progress;
    },

    /** The worker's part: everything left of a job it holds; `keepHolding` after each row. */
    async runJob(jobId: string, keepHolding: () => Promise<void>): Promise<void> {
      const job = await repo.findJob(jobId);
      if (!job || job.state !== 'running') return;
      const owner = await ownerOf(job.user_id);
      if (owner) await work(job, owner, true, keepHolding);
      else
        for (const row of await repo.pendingRows(job.id, 0, Number.MAX_SAFE_INTEGER))
          await repo.settleRow(job.id, row.line, 'The account is gone');
      await repo.finish(job.id, nowIso());
    },

    /** One of the viewer's imports; another person's is not found. */
    async progress(viewer: AuthUser, id: string): Promise<ListImport> {
      const job = await repo.findJob(id);
      if (!job || job.user_id !== viewer.id) throw new NotFoundError('Import not found', 'ImportNotFound');
      return progressOf(job);
    },

    /** The viewer's last imports, newest first. */
    async latest(viewer: AuthUser, limit = 5): Promise<ListImport[]> {
      return Promise.all((await repo.latestJobs(viewer.id, limit)).map(progressOf));
    },
  };
}

export type AccountListsService = ReturnType<typeof accountListsService>;
