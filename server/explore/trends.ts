/**
 * The trends kept in memory (issue 73): worked out from the window's rows (`repository.ts`,
 * `scores.ts`) at the first read, then again in the background every `TRENDS_REFRESH_MS`, so an
 * Explore read never scans posts: it filters the kept list for its reader. Forgotten, to be worked
 * out again at the next read, when an admin hides something or a person stops being discoverable
 * (`TrendsChanged`, `invalidation/table.ts`), and with every cache (`cache/outsideWrites.ts`).
 */
import type { CacheRegistry } from '../cache/registry';
import type { ExploreRepository } from './repository';
import { type TagTrend, WINDOW_MS, trendScores } from './scores';

/** The newest posts of the window read at most: a bound on the work and the memory. */
export const WINDOW_POSTS_MAX = 20_000;
/** Kept of each list: a reader's filtering leaves enough to show. */
const POSTS_KEPT = 200;
const TAGS_KEPT = 40;
const PEOPLE_KEPT = 100;

export interface Trends {
  /** Post ids, highest score first. */
  postIds: string[];
  tags: TagTrend[];
  /** Authors of the window's posts, the most recent poster first: whom to suggest to someone who follows nobody. */
  active: { id: string; key: string }[];
  /** Epoch ms when they were worked out. */
  at: number;
}

export function keptTrends(deps: {
  repo: Pick<ExploreRepository, 'window' | 'hiddenTags'>;
  caches: CacheRegistry;
  refreshMs: number;
  clock?: () => number;
  onError: (error: unknown) => void;
}) {
  const clock = deps.clock ?? Date.now;
  let kept: Trends | null = null;
  let building: Promise<Trends> | null = null;
  /** Bumped by `forget`: a build begun before it keeps nothing. */
  let generation = 0;
  let timer: NodeJS.Timeout | null = null;

  async function build(): Promise<Trends> {
    const now = clock();
    const { posts, interactions, authors } = await deps.repo.window(now - WINDOW_MS, WINDOW_POSTS_MAX);
    const hidden = new Set(await deps.repo.hiddenTags());
    const scores = trendScores(posts, interactions, now);
    return {
      postIds: scores.posts.slice(0, POSTS_KEPT).map((p) => p.id),
      tags: scores.tags.filter((t) => !hidden.has(t.tag)).slice(0, TAGS_KEPT),
      active: authors.slice(0, PEOPLE_KEPT),
      at: now,
    };
  }

  function current(): Promise<Trends> {
    if (kept) return Promise.resolve(kept);
    if (!building) {
      const made = generation;
      building = build().then(
        (trends) => {
          if (made === generation) [kept, building] = [trends, null];
          return trends;
        },
        (error: unknown) => {
          if (made === generation) building = null;
          throw error;
        },
      );
    }
    return building;
  }

  function forget(): void {
    generation++;
    kept = null;
    building = null;
  }
  deps.caches.onForgetEverything('explore_trends', forget);

  return {
    /** The kept trends, worked out first when there are none. */
    current,
    forget,
    /** Works them out again now (the background refresh; tests). */
    async refresh(): Promise<Trends> {
      forget();
      return current();
    },
    start(): void {
      if (timer || deps.refreshMs <= 0) return;
      timer = setInterval(() => {
        // The old ones answer until the new ones are made.
        const made = generation;
        build().then(
          (trends) => {
            if (made === generation) [kept, building] = [trends, null];
          },
          (error: unknown) => deps.onError(error),
        );
      }, deps.refreshMs);
      timer.unref();
    },
    close(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export type KeptTrends = ReturnType<typeof keptTrends>;
