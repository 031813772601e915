/**
 * Issue 76, item 2, between two Posts instances over real HTTP: a follows list exported on B is
 * imported on A; the people of B it names are found through WebFinger by A's worker and followed
 * (counted on B), an address B does not know is a failed row. Every wait is for something to
 * arrive, never for a time.
 */
import { multipartBody } from './multipart';
import { type SignedInUser, type TestApp, signIn } from './helpers';
import { federatedInstance } from './federatedInstance';

async function until<T>(check: () => T | Promise<T>): Promise<NonNullable<T>> {
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const WAIT = 60_000;

let a: TestApp;
let b: TestApp;
let hostA: string;
let hostB: string;
let ann: SignedInUser;
let bob: SignedInUser;
let dee: SignedInUser;

beforeAll(async () => {
  ({ t: a, host: hostA } = await federatedInstance());
  ({ t: b, host: hostB } = await federatedInstance());
  ann = await signIn(a.app, { username: 'ann' });
  await signIn(a.app, { username: 'cat' });
  bob = await signIn(b.app, { username: 'bob' });
  dee = await signIn(b.app, { username: 'dee' });
}, WAIT);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

function importList(t: TestApp, user: SignedInUser, type: string, mode: string, csv: string) {
  const body = multipartBody([
    { name: 'type', value: type },
    { name: 'mode', value: mode },
    { name: 'file', filename: 'following_accounts.csv', contentType: 'text/csv', data: Buffer.from(csv) },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/users/me/list-imports',
    payload: body.payload,
    headers: { ...body.headers, ...user.headers },
  });
}

const followersOf = async (t: TestApp, viewer: SignedInUser, username: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/users/${username}`, headers: viewer.headers })).json().user
    .followersCount as number;

describe('a follows list from one instance imported into the other', () => {
  it(
    "follows B's people through WebFinger in the background, and fails an address B does not know",
    async () => {
      // Dee on B follows Bob: B's export names him as bob@B.
      await b.app.inject({ method: 'PATCH', url: '/api/users/bob/follow', headers: dee.headers });
      const exported = await b.app.inject({
        method: 'GET',
        url: '/api/users/me/export/follows.csv',
        headers: dee.headers,
      });
      expect(exported.body).toBe(
        `Account address,Show boosts,Notify on new posts,Languages\nbob@${hostB},true,false,\n`,
      );

      // Ann on A takes that list, with Cat (of A, named as A's) and someone B has never heard of.
      const csv = `${exported.body}cat@${hostA},true,false,\nnobody_there@${hostB},true,false,\n`;
      const res = await importList(a, ann, 'follows', 'merge', csv);
      expect(res.statusCode, res.body).toBe(202);
      // Cat at once; Bob and the stranger wait for the worker.
      expect(res.json().import).toMatchObject({ total: 3, done: 1, pending: 2, state: 'running' });
      const id = res.json().import.id as string;
      const job = await until(async () => {
        const r = await a.app.inject({ method: 'GET', url: `/api/users/me/list-imports/${id}`, headers: ann.headers });
        const progress = r.json().import;
        return progress.state === 'finished' ? progress : null;
      });
      expect(job).toMatchObject({ total: 3, done: 2, failed: 1, pending: 0 });
      expect(job.failures).toEqual([{ line: 3, address: `nobody_there@${hostB}`, error: 'Not found on their server' }]);

      // Followed on A, and B heard the Follow.
      const mine = await a.app.inject({ method: 'GET', url: '/api/users/me/export/follows.csv', headers: ann.headers });
      expect(mine.body.split('\n').slice(1).sort()).toEqual([
        '',
        `bob@${hostB},true,false,`,
        `cat@${hostA},true,false,`,
      ]);
      await until(async () => (await followersOf(b, bob, 'bob')) === 2);
    },
    WAIT,
  );

  it(
    'overwrite with a list without Bob undoes the follow elsewhere (B counts the Undo)',
    async () => {
      const res = await importList(a, ann, 'follows', 'overwrite', `cat@${hostA}\n`);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().import).toMatchObject({ done: 1, state: 'finished' });
      const mine = await a.app.inject({ method: 'GET', url: '/api/users/me/export/follows.csv', headers: ann.headers });
      expect(mine.body).toBe(`Account address,Show boosts,Notify on new posts,Languages\ncat@${hostA},true,false,\n`);
      await until(async () => (await followersOf(b, bob, 'bob')) === 1);
    },
    WAIT,
  );
});
