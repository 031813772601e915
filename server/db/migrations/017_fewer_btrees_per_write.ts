/**
 * Issue 31: fewer b-trees written per like and per notification.
 * - A notification's one-action key leads with the actor: it also serves the cascade of a deleted
 *   actor, so `notifications_actor_idx` goes (one b-tree fewer on both databases).
 * - SQLite: notifications and the two reaction tables are kept `WITHOUT ROWID`, in their primary
 *   key's b-tree, instead of a rowid table plus a primary-key index that both take every row.
 * SQLite cannot change a table that way in place: each is made again and its rows copied, in one
 * transaction (docs/benchmarks/log/2026-11-27.md, "Writes in one turn commit together").
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const ACTOR_FIRST = ['actor_id', 'user_id', 'type', 'subject_id'];
const RECIPIENT_FIRST = ['user_id', 'type', 'actor_id', 'subject_id'];

const notificationsColumns = (unique: string[]) => `
  "id" varchar(36) primary key,
  "user_id" varchar(36) not null references "users" ("id") on delete cascade,
  "actor_id" varchar(36) not null references "users" ("id") on delete cascade,
  "type" varchar(12) not null,
  "post_id" varchar(36) references "posts" ("id") on delete cascade,
  "comment_id" varchar(36) references "comments" ("id") on delete cascade,
  "subject_id" varchar(36) not null,
  "read_at" varchar(30),
  "created_at" varchar(30) not null,
  constraint "notifications_action_unique" unique (${unique.map((c) => `"${c}"`).join(', ')})`;

const notificationIndexes = [
  'create index "notifications_user_idx" on "notifications" ("user_id", "id")',
  'create index "notifications_unread_idx" on "notifications" ("user_id", "id") where "read_at" is null',
  'create index "notifications_comment_idx" on "notifications" ("comment_id") where "comment_id" is not null',
  'create index "notifications_post_idx" on "notifications" ("post_id") where "post_id" is not null',
];

const reactionsColumns = (target: 'post' | 'comment') => `
  "${target}_id" varchar(36) not null references "${target}s" ("id") on delete cascade,
  "user_id" varchar(36) not null references "users" ("id") on delete cascade,
  "kind" varchar(7) not null,
  "created_at" varchar(30) not null,
  constraint "${target}_reactions_pk" primary key ("${target}_id", "user_id")`;

const reactionsIndex = (target: 'post' | 'comment') =>
  `create index "${target}_reactions_user_reactions_idx" on "${target}_reactions" ("user_id", "${target}_id", "kind")`;

interface Table {
  name: string;
  columns: string;
  indexes: string[];
}

/** The SQLite tables as this migration leaves them (`withoutRowid`) or finds them. */
function sqliteTables(withoutRowid: boolean): Table[] {
  return [
    {
      name: 'notifications',
      columns: notificationsColumns(withoutRowid ? ACTOR_FIRST : RECIPIENT_FIRST),
      indexes: withoutRowid
        ? notificationIndexes
        : [...notificationIndexes, 'create index "notifications_actor_idx" on "notifications" ("actor_id")'],
    },
    { name: 'post_reactions', columns: reactionsColumns('post'), indexes: [reactionsIndex('post')] },
    { name: 'comment_reactions', columns: reactionsColumns('comment'), indexes: [reactionsIndex('comment')] },
  ];
}

/** Each table made again under a new name, its rows copied over, the old one dropped, its indexes made again. */
async function rebuildSqlite(db: Kysely<unknown>, withoutRowid: boolean): Promise<void> {
  await inTransaction(db, async (trx) => {
    for (const { name, columns, indexes } of sqliteTables(withoutRowid)) {
      const rebuilt = `${name}_rebuilt`;
      const options = withoutRowid ? ' without rowid' : '';
      await sql.raw(`create table "${rebuilt}" (${columns})${options}`).execute(trx);
      const names = columns
        .split('\n')
        .map((line) => /^\s*"(\w+)"/.exec(line)?.[1])
        .filter(Boolean)
        .map((column) => `"${column}"`)
        .join(', ');
      await sql.raw(`insert into "${rebuilt}" (${names}) select ${names} from "${name}"`).execute(trx);
      await sql.raw(`drop table "${name}"`).execute(trx);
      await sql.raw(`alter table "${rebuilt}" rename to "${name}"`).execute(trx);
      for (const index of indexes) await sql.raw(index).execute(trx);
    }
  });
}

/** PostgreSQL: the one-action constraint's columns reordered, the actor's own index dropped (or back). */
async function reorderPostgres(db: Kysely<unknown>, actorFirst: boolean): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.schema.alterTable('notifications').dropConstraint('notifications_action_unique').execute();
    await trx.schema
      .alterTable('notifications')
      .addUniqueConstraint('notifications_action_unique', actorFirst ? ACTOR_FIRST : RECIPIENT_FIRST)
      .execute();
    if (actorFirst) await trx.schema.dropIndex('notifications_actor_idx').execute();
    else await trx.schema.createIndex('notifications_actor_idx').on('notifications').column('actor_id').execute();
  });
}

/** Kysely's migrator runs a migration in a transaction where DDL can be in one (PostgreSQL), not on SQLite. */
const inTransaction = (db: Kysely<unknown>, work: (trx: Kysely<unknown>) => Promise<void>) =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await reorderPostgres(db, true);
  else await rebuildSqlite(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await reorderPostgres(db, false);
  else await rebuildSqlite(db, false);
}
