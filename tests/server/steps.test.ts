import { prepared } from '../../server/db/prepared';
import { type Steps, ask, runSteps } from '../../server/db/steps';
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

/** Sets the description, then throws when asked to: whatever ran before the throw must be rolled back. */
function* describeSteps(name: string, description: string, fail: boolean): Steps<number> {
  const rows = yield* ask(describeUser, { name, description });
  if (fail) throw new Error('fails after its write');
  return rows.length;
}

describe('a write run as steps', () => {
  it('commits its statements together, or none of them when a step throws', async () => {
    await t.db.kysely.insertInto('users').values(userRow('stepper')).execute();
    expect(await runSteps(t.db.kysely, t.db.now ?? null, () => describeSteps('stepper', 'one', false))).toBe(1);
    expect(await descriptionOf('stepper')).toBe('one');
    await expect(runSteps(t.db.kysely, t.db.now ?? null, () => describeSteps('stepper', 'two', true))).rejects.toThrow(
      'fails after its write',
    );
    expect(await descriptionOf('stepper')).toBe('one');
  });

  it('waits for a transaction Kysely holds open instead of running inside it (SQLite has one connection)', async () => {
    await t.db.kysely.insertInto('users').values(userRow('waiter')).execute();
    let stepped: Promise<number> | undefined;
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ description: 'rolled back' }).where('username', '=', 'waiter').execute();
        // Between two of the transaction's statements: run synchronously now, the steps would
        // land inside it (and go with its rollback), or fail to BEGIN.
        stepped = runSteps(t.db.kysely, t.db.now ?? null, () => describeSteps('waiter', 'kept', false));
        await trx.selectFrom('users').select('id').execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await stepped).toBe(1);
    expect(await descriptionOf('waiter')).toBe('kept');
  });
});
