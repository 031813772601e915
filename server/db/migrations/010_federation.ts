/**
 * Issue 32, federation (ActivityPub through Fedify): Fedify's key–value store and message queue
 * (`server/federation/kvStore.ts`, `messageQueue.ts`), each local user's key pairs, and the
 * people elsewhere who follow local users.
 * Times are epoch milliseconds: the queue and the store compare them in SQL on both databases.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('federation_kv')
    // The key's parts as a JSON array: a prefix of parts is a prefix of the text (`list`).
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .execute();
  await db.schema.createIndex('federation_kv_expires_idx').on('federation_kv').column('expires_at').execute();

  await db.schema
    .createTable('federation_queue')
    // UUIDv7: messages of one ordering key run in the order they were enqueued.
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('ordering_key', 'text')
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    // Set while a worker holds the message; past it (the worker died), another may take it.
    .addColumn('claimed_until', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('federation_queue_run_idx').on('federation_queue').columns(['run_at', 'id']).execute();
  await db.schema
    .createIndex('federation_queue_ordering_idx')
    .on('federation_queue')
    .columns(['ordering_key', 'id'])
    .execute();

  await db.schema
    .createTable('federation_keys')
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'rsa' (HTTP signatures, for Mastodon) or 'ed25519' (Object Integrity Proofs).
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('federation_keys_pk', ['user_id', 'kind'])
    .execute();

  // People on other servers who follow a local user (accepted at once): whom deliveries go to.
  await db.schema
    .createTable('federation_followers')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('actor_uri', 'text', (c) => c.notNull())
    .addColumn('inbox_uri', 'text', (c) => c.notNull())
    .addColumn('shared_inbox_uri', 'text')
    // The Follow's id: an Undo names it.
    .addColumn('follow_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('federation_followers_once', ['user_id', 'actor_uri'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('federation_followers').execute();
  await db.schema.dropTable('federation_keys').execute();
  await db.schema.dropTable('federation_queue').execute();
  await db.schema.dropTable('federation_kv').execute();
}
