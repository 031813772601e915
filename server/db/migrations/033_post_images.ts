/**
 * Issue 71: albums, a post of 1 to `MAX_POST_IMAGES` photos. `post_images` holds a post's whole
 * ordered list (position 0 first), each photo with its own upload, alt text and crop; the posts row
 * keeps its single-image columns as the first photo, so every read of one photo stays as it was,
 * and `image_count` says when a read needs the list at all (more than one). Every existing post
 * becomes a one-photo album: its image at position 0.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { writeSignalOn } from './030_write_signals_per_row';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('post_images')
    .addColumn('post_id', 'varchar(36)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('media_id', 'varchar(36)', (c) => c.references('media.id').onDelete('set null'))
    .addColumn('alt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('crop', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    // A post from elsewhere: the address its Note gave the image, so an Update finds each photo.
    .addColumn('source', 'text')
    .addPrimaryKeyConstraint('post_images_pk', ['post_id', 'position'])
    .execute();
  // The unused-media sweep asks, per upload, whether any photo of any post is it.
  await db.schema.createIndex('post_images_media_idx').on('post_images').column('media_id').execute();
  await db.schema
    .alterTable('posts')
    .addColumn('image_count', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`
    insert into post_images (post_id, position, image, media_id, alt, crop)
    select id, 0, image, media_id, alt, crop from posts`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) await writeSignalOn(db, 'post_images');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').dropColumn('image_count').execute();
  await db.schema.dropTable('post_images').execute();
}
