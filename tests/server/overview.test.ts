/** Issue 34: `GET /api/admin/overview`, admins only, its figures after known writes, and the instances it hears. */
import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { AdminOverview } from '../../lib/types';
import { createPost, userRow } from './factories';
import { type SignedInUser, type TestApp, busSettler, createTestApp, signIn } from './helpers';

const DAY_MS = 86_400_000;
let t: TestApp;
let admin: SignedInUser;
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_REPORTS_PER_USER: '1000' });
  admin = await signIn(t.app); // the first account is the admin
  alice = await signIn(t.app);
  bob = await signIn(t.app);
});
afterAll(() => t.close());

const overview = (user: SignedInUser | null, app = t.app) =>
  app.inject({ method: 'GET', url: '/api/admin/overview', headers: user?.headers ?? {} });

describe('GET /api/admin/overview', () => {
  it('is 401 signed out and 403 for members', async () => {
    expect((await overview(null)).statusCode).toBe(401);
    const member = await overview(alice);
    expect(member.statusCode).toBe(403);
    expect(member.json()).toMatchObject({ code: 'AdminOnly' });
  });

  it('counts people, the last 30 days of posts and comments, open reports, media bytes, queues, this instance', async () => {
    // Someone who signed up ten days ago and never signed in: counted, neither new nor active.
    await t.db.kysely
      .insertInto('users')
      .values(userRow(`old_${randomBytes(3).toString('hex')}`, { id: uuidv7({ msecs: Date.now() - 10 * DAY_MS }) }))
      .execute();
    const posts = [await createPost(t.app, alice), await createPost(t.app, bob), await createPost(t.app, alice)];
    for (const [i, post] of posts.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/posts/${post._id}/comments`,
        headers: (i % 2 ? alice : bob).headers,
        payload: { message: 'Nice' },
      });
      expect(res.statusCode).toBe(201);
    }
    const reported = await t.app.inject({
      method: 'POST',
      url: '/api/reports',
      headers: bob.headers,
      payload: { targetType: 'post', targetId: posts[0]._id, reason: 'spam' },
    });
    expect(reported.statusCode).toBe(201);

    const res = await overview(admin);
    expect(res.statusCode).toBe(200);
    const body = res.json() as AdminOverview;
    expect(body.people).toEqual({ total: 4, active30d: 3, signedUpThisWeek: 3 });
    expect(body.openReports).toBe(1);

    // Every one of the last 30 UTC days, oldest first, today last; zeros included.
    expect(body.activity).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(body.activity.at(-1)).toEqual({ day: today, posts: 3, comments: 3 });
    for (const [i, entry] of body.activity.entries()) {
      if (i > 0) expect(Date.parse(entry.day) - Date.parse(body.activity[i - 1].day)).toBe(DAY_MS);
      if (i < 29) expect(entry).toMatchObject({ posts: 0, comments: 0 });
    }

    // Every variant of every upload, as the rows list them (the deferred variants are written by now: each post waited for them).
    const rows = await t.db.kysely.selectFrom('media').select('variants').execute();
    const stored = rows.flatMap((row) => JSON.parse(row.variants) as { bytes: number }[]);
    expect(stored.length).toBeGreaterThan(posts.length);
    expect(body.mediaBytes).toBe(stored.reduce((sum, file) => sum + file.bytes, 0));

    expect(body.queues).toEqual({ imageJobs: { running: 0, queued: 0 }, mailOutbox: expect.any(Number) });
    expect(body.instances).toEqual([
      expect.objectContaining({ id: t.config.instanceId, healthy: true, database: 'up', self: true }),
    ]);
  });

  it.runIf(process.env.TEST_REDIS_URL)('lists every instance that shares the bus', async () => {
    const name = `overview-${randomBytes(3).toString('hex')}`;
    const env = { REDIS_URL: process.env.TEST_REDIS_URL!, RATE_LIMIT_REPORTS_PER_USER: '1000' };
    const one = await createTestApp({ ...env, INSTANCE_ID: `${name}-1` });
    await one.app.ctx.bus.ready();
    const two = await createTestApp({ ...env, INSTANCE_ID: `${name}-2` });
    try {
      // `two` sent its first heartbeat as it started; `one` has heard it once it hears a marker sent after.
      await two.app.ctx.presence.ready();
      await (
        await busSettler(two, one)
      )();
      const oneAdmin = await signIn(one.app);
      const body = (await overview(oneAdmin, one.app)).json() as AdminOverview;
      const ours = body.instances.filter((instance) => instance.id.startsWith(name));
      expect(ours).toEqual([
        expect.objectContaining({ id: `${name}-1`, healthy: true, self: true }),
        expect.objectContaining({ id: `${name}-2`, healthy: true, self: false }),
      ]);
    } finally {
      await two.close();
      await one.close();
    }
  });
});
