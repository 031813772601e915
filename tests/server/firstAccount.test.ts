/** Exactly one admin when the first sign-ups into an empty database race (they made two on PostgreSQL). */
import { sql } from 'kysely';
import { type TestApp, createTestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the first account', () => {
  it('is the only admin when 12 sign-ups race, round after round on an emptied database', async () => {
    for (let round = 0; round < 15; round++) {
      await sql`DELETE FROM users`.execute(t.db.kysely);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/auth/signup',
            payload: {
              username: `racer${round}_${i}`,
              email: `racer${round}_${i}@example.com`,
              password: 'correct horse',
            },
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(201));
      const roles = await t.db.kysely.selectFrom('users').select('role').execute();
      expect(
        roles.filter((r) => r.role === 'admin'),
        `round ${round}`,
      ).toHaveLength(1);
    }
  });
});
