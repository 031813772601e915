import type { Kysely } from 'kysely';

/**
 * The whole schema. Foreign keys cascade so that deleting a post (or a user) leaves no orphans;
 * every list of API.md has an index whose order is its keyset order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('username', 'varchar(30)', (c) => c.notNull())
    .addColumn('username_lower', 'varchar(30)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'varchar(10)', (c) => c.notNull().defaultTo('member'))
    .addColumn('avatar', 'text')
    .addColumn('banner', 'text')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('followers_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('following_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('posts_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(30)')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id']).execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('session_id', 'varchar(36)', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('refresh_tokens_session_idx').on('refresh_tokens').columns(['session_id']).execute();

  await db.schema
    .createTable('media')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('owner_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('preset', 'varchar(10)', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('variants', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('format', 'varchar(10)', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('thumbhash', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_owner_idx').on('media').columns(['owner_id', 'id']).execute();

  await db.schema
    .createTable('posts')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('creator_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('media_id', 'varchar(36)', (c) => c.references('media.id').onDelete('set null'))
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dislikes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comments_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  // Posts by user, newest first; also the home feed's per-followee range scans.
  await db.schema.createIndex('posts_creator_idx').on('posts').columns(['creator_id', 'id']).execute();
  await db.schema.createIndex('posts_media_idx').on('posts').columns(['media_id']).execute();

  await db.schema
    .createTable('post_tags')
    .addColumn('post_id', 'varchar(36)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('tag', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('post_tags_pk', ['tag', 'post_id'])
    .execute();
  await db.schema.createIndex('post_tags_post_idx').on('post_tags').columns(['post_id']).execute();

  await db.schema
    .createTable('post_reactions')
    .addColumn('post_id', 'varchar(36)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(7)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('post_reactions_pk', ['post_id', 'user_id'])
    .execute();
  await db.schema.createIndex('post_reactions_user_idx').on('post_reactions').columns(['user_id']).execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('post_id', 'varchar(36)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dislikes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_post_idx').on('comments').columns(['post_id', 'id']).execute();
  await db.schema.createIndex('comments_user_idx').on('comments').columns(['user_id']).execute();

  await db.schema
    .createTable('comment_reactions')
    .addColumn('comment_id', 'varchar(36)', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(7)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_reactions_pk', ['comment_id', 'user_id'])
    .execute();
  await db.schema.createIndex('comment_reactions_user_idx').on('comment_reactions').columns(['user_id']).execute();

  await db.schema
    .createTable('follows')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('follower_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('followee_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('follows_pair_unique', ['follower_id', 'followee_id'])
    .execute();
  // "following" of a user and "followers" of a user, each newest first.
  await db.schema.createIndex('follows_follower_idx').on('follows').columns(['follower_id', 'id']).execute();
  await db.schema.createIndex('follows_followee_idx').on('follows').columns(['followee_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'follows',
    'comment_reactions',
    'comments',
    'post_reactions',
    'post_tags',
    'posts',
    'media',
    'refresh_tokens',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
