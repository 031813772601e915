/**
 * Approve followers in a browser (issue 70, item 1): Star turns "Approve followers" on in Settings;
 * Fan presses Follow on her profile and sees Requested; Star sees the request with its badge on the
 * notifications page and approves it; Fan's Home then shows Star's post and the button says
 * Following. Then screenshots for a person to look at, under test-results/e2e/follow-requests/: the
 * requests list and the button's three states, at 375 and 1280 px in each theme.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, RESULTS_DIR, clickHydrated, expect, test } from './browser';
import { createPostViaApi, signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { type Account, createAccount, newAccount } from './users';

const DIR = path.join(RESULTS_DIR, 'follow-requests');

async function lockedStar(page: Page): Promise<Account> {
  const star = await createAccount(page, newAccount('star'));
  await signInViaApi(page, star);
  const res = await page.request.patch('/api/users/updateProfile', { data: { approveFollowers: true } });
  expect(res.status()).toBe(200);
  return star;
}

/** A person's id, as their profile says. */
async function idOf(page: Page, account: Account): Promise<string> {
  return (await (await page.request.get(`/api/users/${account.username}`)).json()).user._id;
}

describe('approve followers', () => {
  test('request, approve, and the follower sees the posts in Home', { timeout: 120_000 }, async ({ openPage }) => {
    const starPage = await openPage();
    const star = await createAccount(starPage, newAccount('star'));
    await signInViaApi(starPage, star);
    // The setting, as a person turns it on.
    await starPage.goto('/settings#privacy');
    const privacy = starPage.getByRole('region', { name: 'Privacy' });
    await clickHydrated(privacy.getByRole('switch', { name: 'Approve followers' }));
    await expect.poll(() => privacy.getByRole('switch', { name: 'Approve followers' }).isChecked()).toBe(true);
    await expect
      .poll(async () => (await (await starPage.request.get('/api/auth/getLoggedUser')).json()).approveFollowers)
      .toBe(true);
    await createPostViaApi(starPage, { message: 'Only for approved eyes', tags: ['quiet'] });

    const fanPage = await openPage();
    const fan = await createAccount(fanPage, newAccount('fan'));
    await signInViaApi(fanPage, fan);
    await fanPage.goto(`/profile/${star.username}`);
    await clickHydrated(fanPage.getByRole('button', { name: 'Follow', exact: true }));
    await fanPage.getByRole('button', { name: 'Requested' }).waitFor();
    await fanPage.goto('/home');
    await fanPage.getByRole('heading', { name: 'Home' }).waitFor();
    expect(await fanPage.getByText('Only for approved eyes').count()).toBe(0);

    await starPage.goto('/notifications');
    const requests = starPage.getByRole('region', { name: /Follow requests/ });
    await requests.waitFor();
    await expect.poll(() => requests.getByLabel('1 waiting').count()).toBe(1);
    await clickHydrated(requests.getByRole('button', { name: `Approve ${fan.username}` }));
    await requests.waitFor({ state: 'detached' });

    await fanPage.goto('/home');
    await fanPage.getByRole('article').filter({ hasText: 'Only for approved eyes' }).waitFor();
    await fanPage.goto(`/profile/${star.username}`);
    await fanPage.getByRole('button', { name: 'Unfollow' }).waitFor();
  });

  for (const [size, device, width] of [
    ['375', MOBILE, 375],
    ['1280', DESKTOP, 1280],
  ] as const)
    test(`screenshots at ${size} px in every theme`, { timeout: 300_000 }, async ({ openPage }) => {
      mkdirSync(DIR, { recursive: true });
      for (const theme of themes) {
        const page = await openPage(device);
        await useTheme(page, theme);
        const star = await lockedStar(page);
        // Two people ask; a third is followed; the list of people shows the button's three states.
        const others: Account[] = [];
        for (const prefix of ['ann', 'bob', 'cy']) {
          const other = await createAccount(page, newAccount(prefix));
          others.push(other);
        }
        const fans = await openPage(device);
        for (const other of others.slice(0, 2)) {
          await signInViaApi(fans, other);
          await fans.request.patch(`/api/users/${star.username}/follow`);
        }
        await fans.close();
        await page.goto('/notifications');
        const requests = page.getByRole('region', { name: /Follow requests/ });
        await requests.waitFor();
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await requests.screenshot({ path: path.join(DIR, `requests-${size}-${theme}.png`) });

        // The button's states on a profile: Follow, then Requested (she approves followers too).
        const viewer = await openPage(device);
        await useTheme(viewer, theme);
        const v = await createAccount(viewer, newAccount('viewer'));
        await signInViaApi(viewer, v);
        await viewer.goto(`/profile/${star.username}`);
        // The profile's own header (the navbar is a header too).
        const header = viewer.locator('main header').first();
        await viewer.getByRole('button', { name: 'Follow', exact: true }).waitFor();
        await viewer.waitForLoadState('networkidle');
        await header.screenshot({ path: path.join(DIR, `button-follow-${size}-${theme}.png`) });
        await clickHydrated(viewer.getByRole('button', { name: 'Follow', exact: true }));
        await viewer.getByRole('button', { name: 'Requested' }).waitFor();
        await header.screenshot({ path: path.join(DIR, `button-requested-${size}-${theme}.png`) });
        expect(await viewer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

        // Following, in a list: the viewer follows cy (who does not approve followers).
        const cy = others[2];
        await viewer.request.patch(`/api/users/${cy.username}/follow`);
        await viewer.goto(`/profile/${v.username}?tab=following`);
        await viewer.getByRole('button', { name: `Following ${cy.username}` }).waitFor();
        await viewer.waitForLoadState('networkidle');
        await viewer
          .locator('main ul')
          .last()
          .screenshot({ path: path.join(DIR, `button-following-${size}-${theme}.png`) });
        await viewer.close();

        // Star approves ann: her own followers list offers Remove beside each follower.
        await page.request.post(`/api/follow-requests/${await idOf(page, others[0])}/approve`);
        await page.goto(`/profile/${star.username}?tab=followers`);
        await page.getByRole('button', { name: `Remove follower ${others[0].username}` }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page
          .locator('main ul')
          .last()
          .screenshot({ path: path.join(DIR, `followers-remove-${size}-${theme}.png`) });
        await page.close();
      }
    });
});
