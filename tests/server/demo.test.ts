/**
 * `npm run demo` (scripts/demo/run.ts): it asks again politely when the server is busy, a run cut
 * short is finished by the next one, a finished demo is left alone, and it names the site's address.
 */
import { politely, retryAfterMs } from '../../scripts/demo/politely';
import { type DemoAnswer, PEOPLE, runDemo } from '../../scripts/demo/run';
import { createTestApp, type TestApp } from './helpers';

const answer = (statusCode: number, headers: Record<string, string> = {}): DemoAnswer => {
  const body = JSON.stringify({ message: statusCode === 503 ? 'The server is busy' : 'ok' });
  return { statusCode, headers, body, json: () => JSON.parse(body), cookies: [] };
};

describe('politely', () => {
  it('asks again after a 503 or a 429, waiting what Retry-After says, else doubling from a second', async () => {
    const answers = [answer(503), answer(429, { 'retry-after': '3' }), answer(503), answer(201)];
    const waits: number[] = [];
    const res = await politely(async () => answers.shift()!, { wait: async (ms) => void waits.push(ms) });
    expect(res.statusCode).toBe(201);
    expect(waits).toEqual([1000, 3000, 4000]);
  });

  it('gives the last answer back once its tries are spent, and any other answer at once', async () => {
    let sent = 0;
    const busy = await politely(async () => (sent++, answer(503, { 'retry-after': '0' })), {
      attempts: 3,
      wait: async () => {},
    });
    expect([busy.statusCode, sent]).toEqual([503, 3]);
    sent = 0;
    const refused = await politely(async () => (sent++, answer(400)), { wait: async () => {} });
    expect([refused.statusCode, sent]).toEqual([400, 1]);
  });

  it('reads Retry-After as seconds or as an HTTP date, and waits a minute at most', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(retryAfterMs('7', 1000, now)).toBe(7000);
    expect(retryAfterMs('Thu, 26 Nov 2026 12:00:05 GMT', 1000, now)).toBe(5000);
    expect(retryAfterMs('soon', 1000, now)).toBe(1000);
    expect(retryAfterMs(undefined, 2000, now)).toBe(2000);
    expect(retryAfterMs('3600', 1000, now)).toBe(60_000);
  });
});

describe('npm run demo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ HOST: '0.0.0.0', PORT: '4321' });
  });
  afterAll(() => t?.close());

  const count = async (table: 'users' | 'follows' | 'posts' | 'post_reactions' | 'comments' | 'comment_reactions') =>
    Number(
      (
        await t.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const totals = async () =>
    Object.fromEntries(
      await Promise.all(
        (['users', 'follows', 'posts', 'post_reactions', 'comments', 'comment_reactions'] as const).map(
          async (table) => [table, await count(table)],
        ),
      ),
    );

  it('is finished by a rerun after runs cut short on a server busy every third request, then adds nothing', async () => {
    let requests = 0;
    const waits: number[] = [];
    const lines: string[] = [];
    /** As a loaded server sheds: every third request is answered 503; the run is cut after `cutAfter` reached the app. */
    const run = (cutAfter = Infinity) => {
      let reached = 0;
      return runDemo({
        db: t.db,
        siteUrl: t.config.siteUrl,
        say: (line) => lines.push(line),
        people: 4,
        posts: 5,
        retry: { wait: async (ms) => void waits.push(ms) },
        async inject(request) {
          requests += 1;
          if (requests % 3 === 0) return answer(503, { 'retry-after': '2' });
          if (reached >= cutAfter) throw new Error('cut short');
          reached += 1;
          return t.app.inject(request);
        },
      });
    };

    // The case: cut right after the first account was made.
    await expect(run(1)).rejects.toThrow('cut short');
    expect(await count('users')).toBe(1);
    await expect(run(30)).rejects.toThrow('cut short');
    const added = await run();
    expect(added.posts).toBeGreaterThan(0);
    expect(waits.length).toBeGreaterThan(0);
    expect(new Set(waits)).toEqual(new Set([2000]));

    const people = await t.db.kysely.selectFrom('users').select(['username', 'avatar', 'banner']).execute();
    expect(people.map((person) => person.username).sort()).toEqual(
      PEOPLE.slice(0, 4)
        .map(([name]) => name)
        .sort(),
    );
    for (const person of people) expect([person.avatar, person.banner]).not.toContain(null);
    const finished = await totals();
    expect(finished).toMatchObject({ users: 4, follows: 12, posts: 5 });

    lines.length = 0;
    expect(await run()).toEqual({ people: 0, follows: 0, posts: 0, reactions: 0, comments: 0 });
    expect(await totals()).toEqual(finished);
    expect(lines).toContain('The demo is complete in this database; nothing to add.');
    // The address the site answers on, from PORT (and HOST), not a fixed one.
    expect(lines).toContain(
      '\nSign in at http://localhost:4321 (after `npm start`) with any of these, password "demo-password":',
    );
  });
});
