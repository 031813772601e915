/**
 * Migration 039 (issue 72): on PostgreSQL a writer on the Redis bus (a connection named `posts:bus:…`)
 * sends no write signal, since a NOTIFY serialises commits server-wide and the instances on the bus
 * ignore each other's anyway; every other writer still signals (postgresWrites.test.ts). Whether a
 * write was signalled is read in commit order: a marker written after it by a writer off the bus
 * is awaited, and what was heard before it is all there will be. On SQLite the migration does nothing.
 */
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import * as migration039 from '../../server/db/migrations/039_write_signals_off_the_bus';
import { instanceConnectionName } from '../../server/db/postgresWrites';
import { type TestApp, createTestApp, readUntil, signIn } from './helpers';

const ON_BUS = instanceConnectionName({ id: 'host:2', onBus: true });
const OFF_BUS = instanceConnectionName({ id: 'host:3', onBus: false });
const MARKER = 'a tool';
const WARNING =
  /Instances on the Redis bus use this database too \(posts:bus:host:2\).*All instances of one database must be on the bus, or none/;

describe.runIf(process.env.TEST_DB !== 'postgres')('migration 039 on SQLite', () => {
  it('changes nothing, up or down', async () => {
    const t = await createTestApp();
    try {
      const schema = async () =>
        (await sql<{ sql: string | null }>`select sql from sqlite_master order by name`.execute(t.db.kysely)).rows;
      const before = await schema();
      await migration039.down(t.db.kysely as never);
      expect(await schema()).toEqual(before);
      await migration039.up(t.db.kysely as never);
      expect(await schema()).toEqual(before);
    } finally {
      await t.close();
    }
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('PostgreSQL: the write signal off the bus', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await signIn(t.app); // a row for the writers to change
  });
  afterAll(async () => {
    await t?.close();
  });

  const connect = async (name: string) => {
    const client = new pg.Client({ connectionString: t.config.databaseUrl, application_name: name });
    await client.connect();
    return client;
  };

  /** The writers' names a LISTEN hears while `write` runs, up to a marker written after it. */
  async function heardAround(write: () => Promise<unknown>): Promise<string[]> {
    const [listening, marker] = [await connect('a listener'), await connect(MARKER)];
    try {
      const heard: string[] = [];
      listening.on('notification', (message) => heard.push(message.payload ?? ''));
      await listening.query('LISTEN posts_writes');
      await write();
      await marker.query(`update users set description = 'marker'`);
      // Notifications arrive in commit order: once the marker is heard, the writes before it would have been.
      return await readUntil(
        async () => heard,
        (names) => names.includes(MARKER),
      );
    } finally {
      await Promise.all([listening.end(), marker.end()]);
    }
  }

  /** Runs `statements` on a connection named `name`, each its own transaction. */
  const writeAs = (name: string, statements: string[]) => async () => {
    const client = await connect(name);
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  };

  const writes = [`update users set description = 'written'`, 'truncate push_subscriptions'];

  // First in the file: the check reads the connections open now, and no other case's are then.
  it('an instance without the bus warns at start-up when one on it shares the database, and not otherwise', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const startOffBus = async () =>
      (await createTestApp({ LOG_LEVEL: 'warn' }, { sameDatabaseAs: t, logStream })).close();
    await startOffBus(); // beside `t`, off the bus too
    expect(lines.filter((line) => WARNING.test(line))).toEqual([]);

    const onBus = await connect(ON_BUS);
    try {
      await startOffBus();
    } finally {
      await onBus.end();
    }
    const warnings = lines.filter((line) => WARNING.test(line)).map((line) => JSON.parse(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].level).toBe(40); // pino's warn
  });

  it.runIf(process.env.TEST_REDIS_URL)(
    'an instance on the bus warns of one without it, not of those on it',
    async () => {
      const lines: string[] = [];
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      });
      const env = { LOG_LEVEL: 'warn', REDIS_URL: process.env.TEST_REDIS_URL! };
      // Its own pool's connections are on the bus, open while it starts: they are what it would see.
      const onBus = await createTestApp(env, { sameDatabaseAs: t, logStream });
      await onBus.close();
      expect(lines.filter((line) => line.includes('Instances on the Redis bus'))).toEqual([]);
      // `t` is off the bus: its connection that listens for write signals stays open.
      const offBus = lines.filter((line) => line.includes('Instances without the Redis bus use this database too'));
      expect(offBus).toHaveLength(1);
      expect(offBus[0]).toContain('All instances of one database must be on the bus, or none');
    },
  );

  it('a writer on the bus signals nothing: neither a changed row nor a truncate', async () => {
    expect(await heardAround(writeAs(ON_BUS, writes))).toEqual([MARKER]);
  });

  it('a writer off the bus still signals, an instance or a tool', async () => {
    expect(await heardAround(writeAs(OFF_BUS, writes))).toEqual([OFF_BUS, OFF_BUS, MARKER]); // the update's, the truncate's;
    expect(await heardAround(writeAs('psql', writes.slice(0, 1)))).toEqual(['psql', MARKER]);
  });

  it('down gives the writers on the bus their signal back; up takes it away again', async () => {
    await migration039.down(t.db.kysely as never);
    try {
      expect(await heardAround(writeAs(ON_BUS, writes))).toEqual([ON_BUS, ON_BUS, MARKER]);
    } finally {
      await migration039.up(t.db.kysely as never);
    }
    expect(await heardAround(writeAs(ON_BUS, writes))).toEqual([MARKER]);
  });
});
