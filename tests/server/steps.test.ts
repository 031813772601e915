import { readdirSync, readlinkSync } from 'node:fs';
import type { NowConnection } from '../../server/db/database';
import { prepared } from '../../server/db/prepared';
import { type Steps, ask, stepsRunner } from '../../server/db/steps';
import { userRow } from './factories';
import { type TestApp, createTestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const describeUser = prepared((db, v: { name: string; description: string }) =>
  db.updateTable('users').set({ description: v.description }).where('username', '=', v.name).returning('id'),
);
const descriptionOf = async (name: string) =>
  (await t.db.kysely.selectFrom('users').select('description').where('username', '=', name).executeTakeFirst())
    ?.description;
const addUsers = (...names: string[]) =>
  t.db.kysely
    .insertInto('users')
    .values(names.map((name) => userRow(name)))
    .execute();

/** Sets the description, then throws when asked to: whatever ran before the throw must be rolled back. */
function* describeSteps(name: string, description: string, fail: boolean): Steps<number> {
  const rows = yield* ask(describeUser, { name, description });
  if (fail) throw new Error('fails after its write');
  return rows.length;
}

describe('a write run as steps', () => {
  it('commits its statements together, or none of them when a step throws', async () => {
    const steps = stepsRunner(t.db.kysely, t.db.now ?? null);
    await addUsers('stepper');
    expect(await steps(() => describeSteps('stepper', 'one', false))).toBe(1);
    expect(await descriptionOf('stepper')).toBe('one');
    await expect(steps(() => describeSteps('stepper', 'two', true))).rejects.toThrow('fails after its write');
    expect(await descriptionOf('stepper')).toBe('one');
  });

  it('waits for a transaction Kysely holds open instead of running inside it (SQLite has one connection)', async () => {
    const steps = stepsRunner(t.db.kysely, t.db.now ?? null);
    await addUsers('waiter');
    let stepped: Promise<number> | undefined;
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ description: 'rolled back' }).where('username', '=', 'waiter').execute();
        // Between two of the transaction's statements: run synchronously now, the steps would
        // land inside it (and go with its rollback), or fail to BEGIN.
        stepped = steps(() => describeSteps('waiter', 'kept', false));
        await trx.selectFrom('users').select('id').execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await stepped).toBe(1);
    expect(await descriptionOf('waiter')).toBe('kept');
  });

  it('answers each of several writes asked at once with its own outcome', async () => {
    const steps = stepsRunner(t.db.kysely, t.db.now ?? null);
    await addUsers('first', 'second', 'third');
    const outcomes = await Promise.allSettled([
      steps(() => describeSteps('first', 'kept 1', false)),
      steps(() => describeSteps('second', 'taken back', true)),
      steps(() => describeSteps('third', 'kept 3', false)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await descriptionOf('first')).toBe('kept 1');
    expect(await descriptionOf('second')).not.toBe('taken back');
    expect(await descriptionOf('third')).toBe('kept 3');
  });
});

describe.runIf(process.env.TEST_DB === 'sqlite')('SQLite writes asked in one turn', () => {
  /** The connection, counting its transactions. */
  function counted(now: NowConnection) {
    const counter = { transactions: 0 };
    const connection: NowConnection = {
      ...now,
      transaction(work) {
        counter.transactions++;
        return now.transaction(work);
      },
    };
    return { connection, counter };
  }

  it('commit in one transaction, and the next turn in another', async () => {
    const { connection, counter } = counted(t.db.now!);
    const steps = stepsRunner(t.db.kysely, connection);
    await addUsers('grouped1', 'grouped2', 'grouped3');
    await Promise.all([
      steps(() => describeSteps('grouped1', 'together', false)),
      steps(() => describeSteps('grouped2', 'together', true)).catch(() => 0),
      steps(() => describeSteps('grouped3', 'together', false)),
    ]);
    expect(counter.transactions).toBe(1);
    expect(await steps(() => describeSteps('grouped1', 'later', false))).toBe(1);
    expect(counter.transactions).toBe(2);
    expect([await descriptionOf('grouped1'), await descriptionOf('grouped3')]).toEqual(['later', 'together']);
  });

  it('wait while the checkpoint worker holds writes, then commit together with those asked meanwhile', async () => {
    const { connection, counter } = counted(t.db.now!);
    let hold: PromiseWithResolvers<void> | null = Promise.withResolvers<void>();
    const steps = stepsRunner(t.db.kysely, { ...connection, hold: () => hold?.promise ?? null });
    await addUsers('held1', 'held2');
    const first = steps(() => describeSteps('held1', 'after the hold', false));
    await new Promise((resolve) => setImmediate(resolve));
    const second = steps(() => describeSteps('held2', 'after the hold', false));
    await new Promise((resolve) => setImmediate(resolve));
    expect(counter.transactions).toBe(0);
    expect(await descriptionOf('held1')).not.toBe('after the hold');
    const release = hold;
    hold = null;
    release.resolve();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(counter.transactions).toBe(1);
    expect([await descriptionOf('held1'), await descriptionOf('held2')]).toEqual(['after the hold', 'after the hold']);
  });

  it("keep a savepoint's undo pages in memory, not in a temporary file", async () => {
    const now = t.db.now!;
    now.query('create table undo_pages (id integer primary key, body blob)', []);
    now.query(
      'insert into undo_pages (body) with recursive n(i) as (select 1 union all select i + 1 from n where i < 100) select randomblob(2000) from n',
      [],
    );
    // SQLite's temporary files are deleted as soon as opened (`O_TMPFILE`, or unlinked).
    const deletedFiles = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).endsWith('(deleted)');
        } catch {
          return false; // closed meanwhile
        }
      }).length;
    const before = deletedFiles();
    let seen = -1;
    // ~50 pages (200 KB) changed in one savepoint: SQLite's default moves its undo log to a file past 64 KB.
    function* rewritesEveryPage(): Steps<number> {
      now.query('update undo_pages set body = randomblob(2000)', []);
      seen = deletedFiles();
      return yield* describeSteps('undone', 'with every page', false);
    }
    await addUsers('undone', 'grouped');
    const steps = stepsRunner(t.db.kysely, now);
    expect(
      await Promise.all([steps(rewritesEveryPage), steps(() => describeSteps('grouped', 'in the group', false))]),
    ).toEqual([1, 1]);
    expect(seen).toBe(before);
  });

  it('fail together when SQLite ends the transaction itself', async () => {
    const steps = stepsRunner(t.db.kysely, t.db.now!);
    await addUsers('ended1', 'ended2');
    const endsTheTransaction = prepared((db, v: { name: string }) =>
      db.updateTable('users').set({ description: 'no' }).where('username', '=', v.name),
    );
    function* rollsBack(): Steps<number> {
      yield* ask(endsTheTransaction, { name: 'ended2' });
      t.db.now!.query('rollback', []); // as SQLite does on a full disk or an I/O error
      throw new Error('disk full');
    }
    const outcomes = await Promise.allSettled([
      steps(() => describeSteps('ended1', 'lost with the rest', false)),
      steps(rollsBack),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(await descriptionOf('ended1')).not.toBe('lost with the rest');
    expect(t.db.now!.inTransaction()).toBe(false);
  });
});
