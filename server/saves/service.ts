/**
 * Saved posts (issue 73): a person keeps posts to find again. Private: a save is told to no one
 * (no count, no notification, no federation), and the list shows only what the person may see now
 * (a post deleted, hidden by a block or suspension, or out of its audience leaves it).
 */
import type { Post } from '../../lib/types';
import { nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import type { PostReads } from '../posts/reads';
import type { SavesRepository } from './repository';

export interface SavesServiceDeps {
  saves: SavesRepository;
  posts: Pick<PostReads, 'one' | 'load' | 'visibleAmong'>;
  publish: PublishEvent;
}

/** Saved ids read per query while a page fills: most are shown, a few may be hidden. */
const BATCH_MIN = 40;

export function savesService({ saves, posts, publish }: SavesServiceDeps) {
  /** Saves or unsaves, once the viewer may see the post (else 404 `PostNotFound`, nothing written). */
  async function mark(user: AuthUser, id: string, saved: boolean): Promise<Post> {
    await posts.one(user, id);
    if (saved) await saves.savePost(user.id, id, nowIso());
    else await saves.unsavePost(user.id, id);
    publish({ type: 'PostSaved', userId: user.id, postId: id, saved });
    // Read after the event made this instance forget the reader's saved ids.
    return posts.load(user, id);
  }

  return {
    save: (user: AuthUser, id: string) => mark(user, id, true),
    unsave: (user: AuthUser, id: string) => mark(user, id, false),

    /** The viewer's saved posts they may see now, newest saved first: `limit + 1` at most (`sendPage`). */
    async list(user: AuthUser, page: Page): Promise<Post[]> {
      const want = page.limit + 1;
      const batch = Math.max(want * 2, BATCH_MIN);
      const found: Post[] = [];
      let cursor = page.cursor;
      for (;;) {
        const ids = await saves.savedIdsPage(user.id, cursor, batch);
        if (ids.length > 0) found.push(...(await posts.visibleAmong(user, ids)));
        if (found.length >= want || ids.length < batch) break;
        cursor = ids[ids.length - 1];
      }
      // Each is saved: a reader's kept saved ids may lag another instance's save by an event.
      return found.slice(0, want).map((p) => (p.savedByMe ? p : { ...p, savedByMe: true }));
    },
  };
}

export type SavesService = ReturnType<typeof savesService>;
