/**
 * Each reader's saved post ids, kept as their reactions are (`cache/sharedRows.ts`): a post read
 * in any list asks whether the reader saved it (`savedByMe`), and a read of the shared rows must
 * not cost a query for it. Forgotten on every instance when the reader saves or unsaves
 * (`PostSaved`, `invalidation/table.ts`).
 */
import type { CacheRegistry } from '../cache/registry';
import type { SavesRepository } from './repository';

/** A reader with more saves than this is asked per page (their set would weigh too much). */
const KEPT_PER_READER = 2_000;
/** Saved ids kept in all (weighed by their count); past it, the readers read longest ago go. */
const KEPT_IN_ALL = 200_000;

export function savedIdsCache(
  caches: CacheRegistry,
  repo: Pick<SavesRepository, 'savedIdsOf' | 'savedAmong'>,
  ttlMs: number,
) {
  // null: the reader has too many saves to keep.
  const kept = caches.keyed<string, ReadonlySet<string> | null>({
    name: 'saved_posts',
    ttlMs,
    max: KEPT_IN_ALL,
    weigh: (ids) => Math.max(ids?.size ?? 0, 1),
  });
  const readAll = async (readerId: string) => {
    const ids = await repo.savedIdsOf(readerId, KEPT_PER_READER + 1);
    return ids.length > KEPT_PER_READER ? null : new Set(ids);
  };
  return {
    /** Which of these posts the reader saved. */
    async among(readerId: string, postIds: string[]): Promise<ReadonlySet<string>> {
      const all = kept.enabled ? await kept.get(readerId, readAll) : null;
      return all ?? new Set(await repo.savedAmong(readerId, postIds));
    },
    /** The reader saved or unsaved a post. */
    forget(readerId: string): void {
      kept.forget(readerId);
    },
  };
}

export type SavedIdsCache = ReturnType<typeof savedIdsCache>;
