/**
 * A person from elsewhere whose host is an internationalised name is kept with the host in ASCII
 * (`bob@xn--bcher-kva.example`); their profile opens by either spelling, as a mention finds them.
 */
import { usernameKey } from '../../lib/validation';
import { remoteUserRow } from './factories';
import { type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('a name from elsewhere', () => {
  it('is compared with its host in ASCII', () => {
    expect(usernameKey('Bob@Bücher.Example')).toBe('bob@xn--bcher-kva.example');
    expect(usernameKey('bob@xn--bcher-kva.example')).toBe('bob@xn--bcher-kva.example');
    expect(usernameKey('Ann')).toBe('ann');
    // Not a host any URL could have: compared as written.
    expect(usernameKey('bob@bü cher')).toBe('bob@bü cher');
  });

  it('opens the profile by its Unicode host as by its ASCII one', async () => {
    const viewer = await signIn(t.app);
    const row = remoteUserRow('xn--bcher-kva.example');
    await t.db.kysely.insertInto('users').values(row).execute();
    const local = row.username.split('@')[0];
    for (const name of [row.username, `${local}@bücher.example`, `${local.toUpperCase()}@BÜCHER.example`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/users/${encodeURIComponent(name)}`,
        headers: viewer.headers,
      });
      expect(res.statusCode, name).toBe(200);
      expect(res.json().user.username).toBe(row.username);
    }
  });
});
