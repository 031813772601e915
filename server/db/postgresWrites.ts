/**
 * PostgreSQL's counterpart of SQLite's `data_version` (`cache/outsideWrites.ts`): every table's
 * writes NOTIFY `posts_writes` with the writer's `application_name` (migration 019), and the server
 * LISTENs on a connection of its own. Its pool's commits carry its own name and do not count; on an
 * instance on the bus, neither do those of the other instances on the bus (their events tell of
 * them). Anything else (a tool, an instance without the bus, a restore) does. Instances on the bus
 * send no signal (migration 039): so a database's instances are all on the bus, or none
 * (`warnOfMixedInstances`).
 */
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { WRITES_CHANNEL } from './migrations/019_write_signals';
import type { Database } from './schema';

const BUS_MARK = 'posts:bus:';

/** An instance of the server: its `INSTANCE_ID`, and whether its events reach the others (Redis). */
export interface Instance {
  id: string;
  onBus: boolean;
}

/** The instance a configuration runs as. */
export const instanceOf = (config: { instanceId: string; redisUrl: string | null }): Instance => ({
  id: config.instanceId,
  onBus: config.redisUrl !== null,
});

/**
 * The `application_name` of an instance's connections. PostgreSQL keeps 63 bytes of printable
 * ASCII (others become '?'): made so here, so that the name it sends back is this one.
 */
export function instanceConnectionName({ id, onBus }: Instance): string {
  const name = `${onBus ? BUS_MARK : 'posts:'}${id}`;
  return name.replace(/[^\x20-\x7e]/g, '?').slice(0, 63);
}

/** Whether a write notified by a connection named `writer` is one this instance's caches must forget for. */
export function writtenElsewhere(writer: string, own: string, onBus: boolean): boolean {
  return writer !== own && !(onBus && writer.startsWith(BUS_MARK));
}

/**
 * Instances on the bus send no write signal (migration 039), so an instance without the bus on the
 * same database would never learn of their writes: its caches would keep what they changed for
 * their whole time. Checked once at start-up by every instance on PostgreSQL, in `pg_stat_activity`
 * (whose `application_name` every role may read), for the other kind: whichever starts second says
 * so. A warning, not a refusal: one may be moving onto the bus.
 */
export async function warnOfMixedInstances(
  db: Kysely<Database>,
  onBus: boolean,
  warn: (message: string) => void,
): Promise<void> {
  let names: string[];
  try {
    const { rows } = await sql<{ name: string }>`
      select distinct application_name as name from pg_stat_activity
      where datname = current_database() and starts_with(application_name, 'posts:')
        and starts_with(application_name, ${BUS_MARK}) = ${!onBus}
      order by name limit 5`.execute(db);
    names = rows.map((row) => row.name);
  } catch {
    return; // the check is advice; a database that does not answer now fails the start-up elsewhere
  }
  if (names.length === 0) return;
  const rule =
    'All instances of one database must be on the bus, or none: give them all the same REDIS_URL ' +
    '(README, "Running several instances").';
  warn(
    onBus
      ? `Instances without the Redis bus use this database too (${names.join(', ')}). This instance, on ` +
          'the bus, sends them no PostgreSQL write signal, so their caches keep what it changes. ' +
          rule
      : `Instances on the Redis bus use this database too (${names.join(', ')}). They send no PostgreSQL ` +
          'write signal, so this instance, without REDIS_URL, does not learn of their writes: its caches ' +
          'keep what they change (POST_CACHE_MS, SESSION_CACHE_MS, HOME_FEED_SYNC_MS). ' +
          rule,
  );
}

export interface PostgresWrites {
  /** Whether anyone else committed since the last call; always true while not listening (nothing heard is no proof). */
  committedElsewhere(): boolean;
  close(): Promise<void>;
}

const RECONNECT_MS = 1_000;

export function listenForWrites(url: string, instance: Instance): PostgresWrites {
  const own = instanceConnectionName(instance);
  const { onBus } = instance;
  let heard = false;
  let listener: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (client: pg.Client) => {
    if (listener === client) listener = null;
    client.end().catch(() => {});
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, RECONNECT_MS);
    retry.unref();
  };

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString: url, application_name: own });
    client.on('notification', (message) => {
      if (writtenElsewhere(message.payload ?? '', own, onBus)) heard = true;
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${WRITES_CHANNEL}`);
    } catch {
      lost(client);
      return;
    }
    if (closed) return void client.end().catch(() => {});
    // What was written before the LISTEN, or while the last connection was away, was not heard.
    heard = true;
    listener = client;
  }
  void listen();

  return {
    committedElsewhere() {
      if (!listener) return true;
      const was = heard;
      heard = false;
      return was;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await listener?.end().catch(() => {});
      listener = null;
    },
  };
}
