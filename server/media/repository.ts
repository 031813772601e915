/** Queries on uploads (`media` rows). */
import type { Insertable } from 'kysely';
import { prepared } from '../db/prepared';
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

/** The queries on uploads, bound to a database or a transaction. */
export const mediaRepository = bindQueries({
  insertMedia,
  setVariants,
  findMediaByKey,
  imageRows,
  findOwnMedia,
  setDescription,
  setCrop,
});

export type MediaRepository = ReturnType<typeof mediaRepository>;
