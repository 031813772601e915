/**
 * Federation in the browser (issue 32): two production servers of their own (A and B, each with
 * PUBLIC_URL and loopback allowed). Ann on A finds Bob on B by his handle in the search, opens his
 * profile (his earlier post came from his outbox), follows him, sees his new post in her home feed,
 * opens it (the link to the original, Bob's comment from B), likes and comments; on B, Bob's
 * notifications name her `ann_…@host`. Then the pages of people and posts from elsewhere, the search
 * and the admin's domain blocks in every theme at 375 and 1280 px: nothing wider than the screen,
 * no axe violation, and a screenshot each in screenshots/federation/ (ignored; a selection is kept
 * in docs/screenshots/). Every wait is for something to show, never for a time.
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { type APIRequestContext, type Page, request } from 'playwright-core';
import { DESKTOP, expect, MOBILE, test, waitHydrated } from './browser';
import { axeViolations } from './axe';
import { createPostViaApi, signInViaApi, uploadViaApi } from './content';
import { openAppPage, themes, useTheme } from './pages';
import { type RunningServer, startServer } from './server';
import { type Account, createAccount, newAccount, signInWithForm } from './users';

const root = path.resolve(import.meta.dirname, '../..');
const shotsDir = path.join(root, 'screenshots', 'federation');

let a: RunningServer;
let b: RunningServer;
let bobApi: APIRequestContext;
let ann: Account;
let bob: Account;
/** `bob_…@127.0.0.1:PORT`: Bob as A names him. */
let bobThere: string;
let annThere: string;
/** His post made after Ann followed him, on B and as A keeps it. */
let bobPostOnB: string;
let bobPostOnA: string;

/**
 * How long something sent by the other server may take: a delivery that failed is tried again a
 * minute later (`server/federation/federation.ts`), so a wait covers one retry.
 */
const DELIVERY = 150_000;
/** A journey waits for two servers' queues on a busy machine. */
const JOURNEY = 300_000;

const hostOf = (server: RunningServer) => new URL(server.baseURL).host;

/** `npm run admin -- grant` on A's database. */
async function grantAdmin(username: string): Promise<void> {
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', 'grant', username], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: a.dataDir,
      DATABASE_URL: `sqlite:${path.join(a.dataDir, 'posts.db')}`,
      LOG_LEVEL: 'silent',
    },
  });
}

/** What waits in a server's delivery queue (a failed delivery waits there for its next try). */
function queued(server: RunningServer): string {
  const db = new Database(path.join(server.dataDir, 'posts.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT message, run_at FROM federation_queue ORDER BY run_at').all() as {
      message: string;
      run_at: number;
    }[];
    const lines = rows.map(({ message, run_at }) => {
      const { type, activityType, inbox, attempt } = JSON.parse(message) as Record<string, unknown>;
      return `  ${type} ${activityType ?? ''} to ${inbox ?? '?'}, attempt ${attempt ?? 0}, due in ${Math.round((run_at - Date.now()) / 1000)} s`;
    });
    return lines.join('\n') || '  nothing';
  } finally {
    db.close();
  }
}

/**
 * Reloads until `check` holds: what another server sends arrives when its queue gets to it. When
 * it does not, the failure says what both servers still had queued.
 */
async function reloadUntil(page: Page, check: () => Promise<boolean>): Promise<void> {
  try {
    await expect
      .poll(
        async () => {
          if (await check()) return true;
          await page.reload();
          await page.waitForLoadState('networkidle');
          return check();
        },
        { timeout: DELIVERY },
      )
      .toBe(true);
  } catch (error) {
    throw new Error(`${(error as Error).message}\nA's queue:\n${queued(a)}\nB's queue:\n${queued(b)}`, {
      cause: error,
    });
  }
}

beforeAll(async () => {
  // The global setup built the pages; these two only start.
  [a, b] = await Promise.all([
    startServer({ build: false, federated: true, env: { LOG_LEVEL: 'error' } }),
    startServer({ build: false, federated: true, env: { LOG_LEVEL: 'error' } }),
  ]);
  bobApi = await request.newContext({ baseURL: b.baseURL });
  bob = await createAccount({ request: bobApi }, newAccount('bob'));
  await signInViaApi({ request: bobApi }, bob);
  const avatar = await uploadViaApi({ request: bobApi }, 'avatar', 140);
  const banner = await uploadViaApi({ request: bobApi }, 'banner', 300);
  await bobApi.patch('/api/users/updateProfile', {
    data: { avatar: avatar.secure_url, banner: banner.secure_url, description: 'Boats, harbours and early light.' },
  });
  await createPostViaApi({ request: bobApi }, { message: 'Harbour at dawn', tags: ['harbour'], hue: 190 });
  bobThere = `${bob.username}@${hostOf(b)}`;
}, 180_000);

afterAll(async () => {
  await bobApi?.dispose();
  await Promise.all([a?.stop(), b?.stop()]);
});

describe('federation in the browser', () => {
  test(
    'Ann finds Bob by his handle, follows him, and his post reaches her home feed',
    async ({ openPage }) => {
      const page = await openPage({ baseURL: a.baseURL });
      ann = await createAccount(page, newAccount('ann'));
      annThere = `${ann.username}@${hostOf(a)}`;
      await signInWithForm(page, ann);

      const search = page.getByRole('banner').getByRole('search');
      await waitHydrated(search.getByLabel('Add a tag to search'));
      await search.getByLabel('Add a tag to search').fill(`@${bobThere}`);
      const found = search.getByRole('region', { name: 'People' });
      await expect.poll(() => found.getByRole('status').textContent(), { timeout: 30_000 }).toBe('People (1)');
      await found.getByRole('link', { name: new RegExp(`^${bobThere}`) }).click();
      await page.waitForURL(`**/profile/@${bob.username}@${hostOf(b)}`);
      await page.getByRole('heading', { level: 1, name: bobThere }).waitFor();
      const elsewhere = page.getByRole('link', { name: /^http:\/\/127\.0\.0\.1/ });
      expect(new URL((await elsewhere.getAttribute('href'))!).host).toBe(hostOf(b));
      // His earlier post comes from his outbox in the background.
      const earlier = page.getByRole('main').getByAltText(/^Image posted by .*: Harbour at dawn$/);
      await reloadUntil(page, () => earlier.isVisible());

      await page.getByRole('button', { name: 'Follow', exact: true }).click();
      await page.getByRole('button', { name: 'Unfollow', exact: true }).waitFor();
      // B delivers Bob's posts to the followers it knows: the follow must have reached it first.
      await expect
        .poll(async () => (await (await bobApi.get(`/api/users/${bob.username}`)).json()).user.followersCount, {
          timeout: DELIVERY,
        })
        .toBe(1);

      const made = await createPostViaApi(
        { request: bobApi },
        { message: 'Boats coming in', tags: ['boats'], hue: 40 },
      );
      bobPostOnB = made._id;
      await page.goto('/home');
      const card = page.getByRole('article').filter({ hasText: 'Boats coming in' });
      await reloadUntil(page, () => card.isVisible());
      await expect.poll(() => card.getByRole('link', { name: bobThere, exact: true }).isVisible()).toBe(true);
      await card.getByRole('link', { name: /comments?, open post$/ }).click();
      await page.waitForURL(/\/post\/[^/#]+#comments$/);
      bobPostOnA = new URL(page.url()).pathname.split('/').pop()!;
      const original = page.getByRole('link', { name: 'see the original' });
      expect(await original.getAttribute('href')).toBe(`${b.baseURL}/post/${bobPostOnB}`);
    },
    JOURNEY,
  );

  test(
    "on the post from elsewhere: Bob's comment from B shows, Ann likes and comments",
    async ({ openPage }) => {
      const res = await bobApi.post(`/api/posts/${bobPostOnB}/comments`, { data: { message: 'The tide was early' } });
      expect(res.status()).toBe(201);
      const page = await openPage({ baseURL: a.baseURL });
      await signInViaApi(page, ann);
      await openAppPage(page, `/post/${bobPostOnA}`);
      const comments = page.getByRole('region', { name: /^Comments/ });
      await reloadUntil(page, () => comments.getByText('The tide was early').isVisible());
      await expect.poll(() => comments.getByRole('link', { name: bobThere, exact: true }).isVisible()).toBe(true);

      await page.getByRole('button', { name: /^Like post, 0 likes$/ }).click();
      await page.getByRole('button', { name: /^Like post, 1 like$/ }).waitFor();
      await comments.getByRole('textbox').fill('Lovely light!');
      await comments.getByRole('button', { name: /^(Post|Comment|Send)/ }).click();
      await comments.getByText('Lovely light!').waitFor();
    },
    JOURNEY,
  );

  test(
    "on B, Bob's notifications name Ann as name@host",
    async ({ openPage }) => {
      const page = await openPage({ baseURL: b.baseURL });
      await signInViaApi(page, bob);
      await openAppPage(page, '/notifications');
      const main = page.getByRole('main');
      for (const action of ['started following you', 'liked your post', 'commented on your post']) {
        const row = main.getByRole('link').filter({ hasText: action }).first();
        await reloadUntil(page, () => row.isVisible());
        await expect.poll(() => row.locator('strong').textContent()).toBe(annThere);
      }
    },
    JOURNEY,
  );
});

/** The pages to look at, each opened and waited for on a signed-in page of A. */
const views: { name: string; open: (page: Page, mobile: boolean) => Promise<void> }[] = [
  {
    name: 'remoteSearch',
    async open(page, mobile) {
      await openAppPage(page, '/home');
      if (mobile) await page.getByRole('button', { name: 'Search by tags' }).click();
      const search = page.getByRole('banner').getByRole('search');
      await waitHydrated(search.getByLabel('Add a tag to search'));
      await search.getByLabel('Add a tag to search').fill(`@${bobThere}`);
      await expect
        .poll(() => search.getByRole('region', { name: 'People' }).getByRole('status').textContent(), {
          timeout: 30_000,
        })
        .toBe('People (1)');
      // The avatar in the result has loaded.
      await search.locator('img').first().waitFor();
    },
  },
  {
    name: 'remoteProfile',
    async open(page) {
      await openAppPage(page, `/profile/@${bob.username}@${hostOf(b)}`);
      await page.getByRole('heading', { level: 1, name: bobThere }).waitFor();
    },
  },
  {
    name: 'remotePost',
    async open(page) {
      await openAppPage(page, `/post/${bobPostOnA}`);
      await page.getByText('The tide was early').waitFor();
    },
  },
  {
    name: 'domainBlocks',
    async open(page) {
      await openAppPage(page, '/admin');
      const panel = page.getByRole('region', { name: 'Blocked domains' });
      await panel.scrollIntoViewIfNeeded();
      await panel.getByText('spam.example', { exact: true }).waitFor();
    },
  },
];

describe('pages of people and posts from elsewhere', () => {
  beforeAll(async () => {
    await grantAdmin(ann.username);
    const admin = await request.newContext({ baseURL: a.baseURL });
    await signInViaApi({ request: admin }, ann);
    for (const [domain, severity] of [
      ['spam.example', 'suspend'],
      ['a-rather-long-subdomain.of-an-instance-with-a-long-name.example', 'silence'],
    ]) {
      const res = await admin.post('/api/admin/domains', { data: { domain, severity } });
      if (!res.ok()) throw new Error(`domain block failed: ${res.status()} ${await res.text()}`);
    }
    await admin.dispose();
    mkdirSync(shotsDir, { recursive: true });
  });

  for (const [width, options] of [
    ['375', MOBILE],
    ['1280', DESKTOP],
  ] as const) {
    test(`${width}px, every theme: nothing wider than the screen, no axe violation`, async ({ openPage }) => {
      for (const theme of themes) {
        const page = await openPage({ ...options, baseURL: a.baseURL });
        await useTheme(page, theme);
        await signInViaApi(page, ann);
        for (const view of views) {
          await view.open(page, width === '375');
          const wide = await page.evaluate(() => document.documentElement.scrollWidth);
          expect({ view: view.name, theme, wide }).toEqual({ view: view.name, theme, wide: Number(width) });
          // Bob's name is shown whole wherever it is (his server too): nothing cut off or past the edge.
          const names = await page.evaluate((name) => {
            const shown = [...document.querySelectorAll('a, strong, h1')].filter((el) => el.textContent === name);
            return shown.map((el) => ({
              cut: el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).display !== 'inline',
              past: el.getBoundingClientRect().right > document.documentElement.clientWidth,
            }));
          }, bobThere);
          if (view.name !== 'domainBlocks') expect(names.length).toBeGreaterThan(0);
          expect(names.filter((n) => n.cut || n.past)).toEqual([]);
          expect({ view: view.name, theme, violations: await axeViolations(page) }).toEqual({
            view: view.name,
            theme,
            violations: [],
          });
          const file = path.join(shotsDir, `${view.name}-${theme}-${width}.png`);
          if (view.name === 'domainBlocks')
            await page.getByRole('region', { name: 'Blocked domains' }).screenshot({ path: file });
          else await page.screenshot({ path: file, fullPage: width !== '375' });
        }
      }
    }, 300_000);
  }
});
