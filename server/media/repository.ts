/** Queries on uploads (`media` rows). */
import { type Insertable, sql } from 'kysely';
import { prepared } from '../db/prepared';
import { stableInList } from '../db/stablePlans';
import { bindQueries } from '../db/repository';
import type { MediaRow, MediaTable, Queryable } from '../db/schema';

const insertMedia = (db: Queryable, media: Insertable<MediaTable>) => db.insertInto('media').values(media).execute();

/** Replaces the list of stored files; false when the row is gone. */
async function setVariants(db: Queryable, id: string, variants: string): Promise<boolean> {
  const result = await db.updateTable('media').set({ variants }).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// Compiled once: every new post looks up its image's upload.
const mediaWithKey = prepared((db, v: { storageKey: string }) =>
  db.selectFrom('media').selectAll().where('storage_key', '=', v.storageKey),
);
const findMediaByKey = async (db: Queryable, storageKey: string): Promise<MediaRow | undefined> =>
  (await mediaWithKey(db, { storageKey }))[0];

/** What a post image's `imageInfo` is made of. */
const imageRows = (db: Queryable, ids: string[]) =>
  db.selectFrom('media').select(['id', 'width', 'height', 'thumbhash', 'variants']).where('id', 'in', ids).execute();

/** One of the owner's uploads. */
const findOwnMedia = (db: Queryable, ownerId: string, id: string): Promise<MediaRow | undefined> =>
  db.selectFrom('media').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();

/** Alt text kept with an upload until a post takes it (the Mastodon client API's `description`). */
const setDescription = (db: Queryable, ownerId: string, id: string, description: string | null) =>
  db.updateTable('media').set({ description }).where('id', '=', id).where('owner_id', '=', ownerId).execute();

/** Where a post taking the upload crops it (posts' crop form; Mastodon's `focus`). */
const setCrop = (db: Queryable, ownerId: string, id: string, crop: string) =>
  db.updateTable('media').set({ crop }).where('id', '=', id).where('owner_id', '=', ownerId).execute();

/**
 * Deletes those of the uploads `ids` (made before `before`, when given) that no post's photo and no
 * avatar or banner uses, each checked by the DELETE itself, so a reference made meanwhile keeps
 * it; returns the `variants` of those deleted. `uploadUrlPrefix`: `storage.url('')`, as profiles
 * keep an upload's URL (this prefix + its key), not its id.
 */
async function deleteUnused(db: Queryable, ids: string[], uploadUrlPrefix: string, before?: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const urlOfUpload = sql<string>`${uploadUrlPrefix} || m.storage_key`;
  const gone = await db
    .deleteFrom('media as m')
    .where('m.id', 'in', stableInList(ids))
    .$if(before !== undefined, (q) => q.where('m.created_at', '<', before!.toISOString()))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('posts').select('posts.id').whereRef('posts.media_id', '=', 'm.id'))))
    // Any photo of any post (issue 71: an album's others are only there).
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('post_images').select('post_images.post_id').whereRef('post_images.media_id', '=', 'm.id'),
        ),
      ),
    )
    // Any own upload may be an avatar or banner (whatever its preset), and only its owner's.
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('users')
            .select('users.id')
            .whereRef('users.id', '=', 'm.owner_id')
            .where((u) => u.or([u('users.avatar', '=', urlOfUpload), u('users.banner', '=', urlOfUpload)])),
        ),
      ),
    )
    // Unqualified: SQLite's RETURNING cannot name the table's alias.
    .returning('variants')
    .execute();
  return gone.map((row) => row.variants);
}

/** The queries on uploads, bound to a database or a transaction. */
export const mediaRepository = bindQueries({
  insertMedia,
  setVariants,
  findMediaByKey,
  imageRows,
  findOwnMedia,
  setDescription,
  setCrop,
  deleteUnused,
});

export type MediaRepository = ReturnType<typeof mediaRepository>;
