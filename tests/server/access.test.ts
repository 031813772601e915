import { TEXTS } from '../../lib/texts';
import { type TestApp, createTestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

// API.md: everything but these needs a signed-in user.
const PUBLIC = new Set([
  'POST /api/auth/signup',
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  // Issue 22: the mailed links work without a session (another device).
  'POST /api/auth/password/forgot',
  'POST /api/auth/password/reset',
  'POST /api/auth/email/verify',
  'GET /api/instance/',
  'GET /api/instance/health',
  // Issue 74: the instance's VAPID public key (public by nature, API.md).
  'GET /api/push/key',
  // Issue 73: Explore's trending public posts and tags, as the public pages show posts.
  'GET /api/explore/',
  'GET /api/explore/posts',
]);

describe('visitors', () => {
  it('get 401 "User are not logged in" from every other route of the OpenAPI document', async () => {
    const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const checked: string[] = [];
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const method of Object.keys(methods).map((m) => m.toUpperCase())) {
        const key = `${method} ${path}`;
        if (PUBLIC.has(key) || method === 'HEAD' || path.startsWith('/media/')) continue;
        const url = path.replace(/\{[^}]+\}/g, '0190d5c6-0000-7000-8000-000000000000').replace('{username}', 'someone');
        const res = await t.app.inject({ method: method as 'GET', url, ...(method === 'GET' ? {} : { payload: {} }) });
        expect.soft(res.statusCode, key).toBe(401);
        expect.soft(res.json(), key).toEqual({ message: TEXTS.notLoggedIn, code: 'Unauthorized' });
        checked.push(key);
      }
    }
    // The document lists every route: a new route without a session check fails here.
    expect(checked.length).toBeGreaterThanOrEqual(20);
  });
});
