/**
 * Issue 68, the Low items 9, 10, 16, 21, 23 and 25, in Chromium at the widths they were found at:
 * the profile's "…" menu, the admin's open reports count, the settings' section list, the
 * notifications page hydrating cleanly, Settings asking before unsaved changes are left, and the
 * navbar between phone and desktop. Screenshots go to screenshots/defects68b/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { TEXTS } from '../../lib/texts';
import type { AdminOverview } from '../../lib/types';
import { axeViolations } from './axe';
import { clickHydrated, DESKTOP, expect, MOBILE, test } from './browser';
import { createPostViaApi, signInViaApi, uploadViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount, grantAdmin } from './users';

const root = path.resolve(import.meta.dirname, '../..');
const SHOTS = path.resolve(root, 'screenshots/defects68b');
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string, fullPage = false) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });

const at = (width: number) =>
  width < 768 ? { ...MOBILE, viewport: { width, height: 812 } } : { ...DESKTOP, viewport: { width, height: 800 } };

/**
 * Nothing wider than the screen. On a phone a page wider than the screen widens the layout viewport
 * (innerWidth) to fit, so the viewport's own width is the measure.
 */
const noSideScroll = (page: Page) =>
  page.evaluate(
    (width) => document.scrollingElement!.scrollWidth <= width && window.innerWidth === width,
    page.viewportSize()!.width,
  );

const focusedName = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');

/** Someone with an avatar and a banner, and a second account signed in on `page` looking at them. */
async function profileToVisit(page: Page) {
  const owner = await createAccount(page);
  await signInViaApi(page, owner);
  const [avatar, banner] = [await uploadViaApi(page, 'avatar', 20), await uploadViaApi(page, 'banner', 260)];
  await page.request.patch('/api/users/updateProfile', {
    data: { avatar: avatar.secure_url, banner: banner.secure_url, description: 'Harbours at dawn.' },
  });
  const viewer = await createAccount(page);
  await signInViaApi(page, viewer);
  return { owner, viewer };
}

describe('issue 68 (Low items)', () => {
  for (const width of [320, 375, 1280]) {
    test(
      `a profile at ${width} px: Follow and a "…" menu, no sideways scroll (item 9)`,
      { timeout: 150_000 },
      async ({ openPage }) => {
        const page = await openPage(at(width));
        const { owner } = await profileToVisit(page);
        await page.goto(`/profile/${owner.username}`);
        const more = page.getByRole('button', { name: `More actions for ${owner.username}` });
        await more.waitFor();
        expect(await noSideScroll(page)).toBe(true);
        // Report, Mute and Block are in the menu, not beside Follow.
        for (const name of [`Report ${owner.username}`, 'Mute', 'Block'])
          expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
        // The actions sit under the banner, in one row with the avatar's foot.
        const follow = page.getByRole('button', { name: 'Follow', exact: true });
        const banner = (await page.getByRole('img', { name: `${owner.username}'s banner` }).boundingBox())!;
        const [followBox, moreBox] = [(await follow.boundingBox())!, (await more.boundingBox())!];
        expect(followBox.y).toBeGreaterThanOrEqual(banner.y + banner.height);
        expect(Math.abs(followBox.y + followBox.height / 2 - (moreBox.y + moreBox.height / 2))).toBeLessThan(2);
        expect(moreBox.x + moreBox.width).toBeLessThanOrEqual(width);

        expect(await more.getAttribute('aria-haspopup')).toBe('menu');
        expect(await more.getAttribute('aria-expanded')).toBe('false');
        // By keyboard: Enter opens it on its first item; the arrows go round; Escape closes it back to the button.
        await expect
          .poll(() => more.evaluate((el) => Object.keys(el).some((k) => k.startsWith('__reactProps$'))))
          .toBe(true);
        await more.focus();
        await page.keyboard.press('Enter');
        const menu = page.getByRole('menu', { name: `More actions for ${owner.username}` });
        await menu.waitFor();
        expect(await more.getAttribute('aria-expanded')).toBe('true');
        expect(await more.getAttribute('aria-controls')).toBe(await menu.getAttribute('id'));
        const shareItem = `Share ${owner.username}'s profile`;
        expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual([
          `Report ${owner.username}`,
          'Mute',
          'Block',
          shareItem,
        ]);
        await expect.poll(() => focusedName(page)).toBe(`Report ${owner.username}`);
        await page.keyboard.press('ArrowDown');
        expect(await focusedName(page)).toBe('Mute');
        await page.keyboard.press('End');
        expect(await focusedName(page)).toBe(shareItem);
        await page.keyboard.press('ArrowDown');
        expect(await focusedName(page)).toBe(`Report ${owner.username}`);
        await page.keyboard.press('ArrowUp');
        expect(await focusedName(page)).toBe(shareItem);
        expect(await noSideScroll(page)).toBe(true);
        expect(await axeViolations(page)).toEqual([]);
        await shot(page, `profile-menu-${width}`);
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
        expect(await more.getAttribute('aria-expanded')).toBe('false');
        expect(await focusedName(page)).toBe(`More actions for ${owner.username}`);

        // Mute from the menu; the menu then offers Unmute.
        await page.keyboard.press('ArrowDown');
        await menu.getByRole('menuitem', { name: 'Mute' }).click();
        await page.getByText(`You muted ${owner.username}`, { exact: true }).last().waitFor();
        await more.click();
        await menu.getByRole('menuitem', { name: 'Unmute' }).waitFor();
        // Report opens its dialog; closing it gives focus back to the "…" button.
        await menu.getByRole('menuitem', { name: `Report ${owner.username}` }).click();
        const dialog = page.getByRole('dialog', { name: /^Report/ });
        await dialog.waitFor();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await expect.poll(() => focusedName(page)).toBe(`More actions for ${owner.username}`);
      },
    );
  }

  for (const theme of themes) {
    test(
      `the profile with its menu open, ${theme}, at 320, 375 and 1280 px (item 9)`,
      { timeout: 150_000 },
      async ({ openPage }) => {
        const setup = await openPage();
        const { owner, viewer } = await profileToVisit(setup);
        for (const width of [320, 375, 1280]) {
          const page = await openPage(at(width));
          await useTheme(page, theme);
          await signInViaApi(page, viewer);
          await page.goto(`/profile/${owner.username}`);
          const more = page.getByRole('button', { name: `More actions for ${owner.username}` });
          await clickHydrated(more);
          await page.getByRole('menu').waitFor();
          expect(await noSideScroll(page), `${theme} ${width}`).toBe(true);
          expect(await axeViolations(page)).toEqual([]);
          await shot(page, `profile-${theme}-${width}`);
        }
      },
    );
  }

  test(
    'the overview\'s "Open reports" follows Dismiss, Remove and Suspend (item 10)',
    { timeout: 150_000 },
    async ({ openPage }) => {
      // The admin first: the first account of an empty database runs the instance, and an admin cannot be suspended.
      const page = await openPage(DESKTOP);
      const admin = await createAccount(page);
      await grantAdmin(admin.username);
      await signInViaApi(page, admin);
      const authorPage = await openPage();
      const author = await createAccount(authorPage);
      await signInViaApi(authorPage, author);
      const posts = [];
      for (const message of ['Spam one', 'Spam two', 'Spam three'])
        posts.push(await createPostViaApi(authorPage, { message, tags: ['spam'] }));
      const reporterPage = await openPage();
      const reporter = await createAccount(reporterPage);
      await signInViaApi(reporterPage, reporter);
      for (const [i, post] of posts.entries()) {
        const sent = await reporterPage.request.post('/api/reports', {
          data: { targetType: 'post', targetId: post._id, reason: 'spam', note: `Report number ${i + 1}` },
        });
        expect(sent.ok()).toBe(true);
      }

      await page.goto('/admin');
      const overview = page.getByRole('region', { name: 'Overview' });
      const shown = async () =>
        Number(await overview.locator('dt', { hasText: 'Open reports' }).locator('+ dd').innerText());
      const server = async () =>
        ((await (await page.request.get('/api/admin/overview')).json()) as AdminOverview).openReports;
      const item = (n: number) => page.getByRole('listitem').filter({ hasText: `Report number ${n}` });
      await item(1).waitFor();
      await expect.poll(shown).toBe(await server());
      const start = await shown();

      await item(1).getByRole('button', { name: 'Dismiss' }).click();
      await item(1).waitFor({ state: 'detached' });
      await expect.poll(shown).toBeLessThan(start);
      await expect.poll(async () => (await shown()) === (await server())).toBe(true);

      await item(2).getByRole('button', { name: 'Remove post' }).click();
      await page.getByRole('dialog', { name: 'Remove this post?' }).getByRole('button', { name: 'Remove' }).click();
      await item(2).waitFor({ state: 'detached' });
      await expect.poll(shown).toBeLessThan(start - 1);
      await expect.poll(async () => (await shown()) === (await server())).toBe(true);

      await item(3).getByRole('button', { name: 'Suspend author' }).click();
      await page
        .getByRole('dialog', { name: `Suspend ${author.username}?` })
        .getByRole('button', { name: 'Suspend' })
        .click();
      await item(3).waitFor({ state: 'detached' });
      await expect.poll(shown).toBeLessThan(start - 2);
      await expect.poll(async () => (await shown()) === (await server())).toBe(true);
    },
  );

  for (const [width, device] of [
    [375, MOBILE],
    [1280, DESKTOP],
  ] as const) {
    test(
      `Settings at ${width} px: a list of its sections, deep links to each (item 16)`,
      { timeout: 150_000 },
      async ({ openPage }) => {
        const page = await openPage(device);
        const account = await createAccount(page);
        await signInViaApi(page, account);
        // A deep link to a section the page renders after its first load.
        await page.goto('/settings#data');
        const data = page.getByRole('region', { name: 'Your data' });
        await data.waitFor();
        const inView = (section: Locator) =>
          section.evaluate((el) => {
            const top = el.getBoundingClientRect().top;
            return top >= 0 && top < window.innerHeight / 2;
          });
        await expect.poll(() => inView(data)).toBe(true);

        const nav = page.getByRole('navigation', { name: 'Settings sections' });
        const names = await nav.getByRole('link').allInnerTexts();
        expect(names).toEqual([
          'Profile',
          'Account',
          'Theme',
          'Media',
          'Notifications',
          'Privacy',
          'Devices',
          'Authorised apps',
          'Blocked and muted',
          'Followed tags',
          'Two-factor sign-in',
          'Your data',
          'Move in and out',
        ]);
        // Each link leads to its section (the last one and the notifications load on their own).
        await page.getByRole('region', { name: 'Move in and out' }).waitFor();
        await page.getByRole('region', { name: 'Notifications on this device' }).waitFor();
        for (const link of await nav.getByRole('link').all()) {
          const id = (await link.getAttribute('href'))!.slice(1);
          expect(await page.locator(`section#${id}`).count(), id).toBe(1);
        }
        await page.evaluate(() => window.scrollTo(0, 0));
        await nav.getByRole('link', { name: 'Blocked and muted' }).click();
        await expect.poll(() => page.evaluate(() => location.hash)).toBe('#blocked');
        await expect.poll(() => inView(page.getByRole('region', { name: 'Blocked and muted' }))).toBe(true);
        expect(await noSideScroll(page)).toBe(true);
        if (width === 1280) {
          // Beside the sections and staying in view as they scroll by.
          const navBox = (await nav.boundingBox())!;
          expect(navBox.y).toBeGreaterThanOrEqual(0);
          expect(navBox.y + navBox.height).toBeLessThanOrEqual(800);
          expect(navBox.x + navBox.width).toBeLessThanOrEqual((await data.boundingBox())!.x);
        } else {
          // At the top, above the first section, and compact.
          await page.evaluate(() => window.scrollTo(0, 0));
          const navBox = (await nav.boundingBox())!;
          expect(navBox.y + navBox.height).toBeLessThanOrEqual(
            (await page.getByRole('region', { name: 'Profile' }).boundingBox())!.y,
          );
          expect(navBox.height).toBeLessThan(200);
        }
        for (const theme of themes) {
          const themed = await openPage(device);
          await useTheme(themed, theme);
          await signInViaApi(themed, account);
          await themed.goto('/settings');
          await themed.getByRole('region', { name: 'Your data' }).waitFor();
          expect(await axeViolations(themed)).toEqual([]);
          await shot(themed, `settings-${theme}-${width}`);
        }
      },
    );
  }

  test(
    '/notifications at 375 px, a first visit with unread items: no hydration error (item 21)',
    { timeout: 150_000 },
    async ({ openPage }) => {
      const setup = await openPage();
      const account = await createAccount(setup);
      await signInViaApi(setup, account);
      const post = await createPostViaApi(setup, { message: 'Dawn over the harbour', tags: ['dawn'] });
      const fan = await createAccount(setup);
      await signInViaApi(setup, fan);
      await setup.request.patch(`/api/users/${account.username}/follow`, { data: {} });
      await setup.request.patch(`/api/posts/${post._id}/like`, { data: {} });
      await setup.request.post(`/api/posts/${post._id}/comments`, {
        data: { message: `Lovely, @${account.username}` },
      });

      // A browser that has never been here: nothing stored, signed in by the API.
      const page = await openPage(MOBILE);
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await signInViaApi(page, account);
      await page.goto('/notifications');
      const rows = page.locator('[data-unread]');
      await expect.poll(() => rows.count()).toBe(3);
      // Hydrated, and the effects that followed (marking them read) have run.
      await expect.poll(() => page.getByRole('link', { name: 'Notifications', exact: true }).count()).toBe(1);
      await page.waitForLoadState('networkidle');
      expect(errors).toEqual([]);
      await shot(page, 'notifications-375');
    },
  );

  for (const [width, device] of [
    [375, MOBILE],
    [1280, DESKTOP],
  ] as const) {
    test(
      `Settings at ${width} px asks before a staged removal is left unsaved (item 23)`,
      { timeout: 150_000 },
      async ({ openPage }) => {
        const page = await openPage(device);
        const account = await createAccount(page);
        await signInViaApi(page, account);
        const [avatar, banner] = [await uploadViaApi(page, 'avatar'), await uploadViaApi(page, 'banner')];
        await page.request.patch('/api/users/updateProfile', {
          data: { avatar: avatar.secure_url, banner: banner.secure_url },
        });
        await page.goto('/settings');
        const dialogs: { type: string; message: string }[] = [];
        let answer = false;
        page.on('dialog', (dialog) => {
          dialogs.push({ type: dialog.type(), message: dialog.message() });
          void (answer ? dialog.accept() : dialog.dismiss());
        });
        await clickHydrated(page.getByRole('button', { name: 'Remove avatar' }));
        await page.getByRole('button', { name: 'Remove avatar' }).waitFor({ state: 'detached' });
        const home = async () => {
          // The bar hides while the page scrolls down: back at the top it is there.
          await page.evaluate(() => window.scrollTo(0, 0));
          await expect.poll(() => page.getByTestId('navbar').getAttribute('data-hidden')).toBe('false');
          if (width === 375) {
            await page.getByRole('button', { name: 'Open menu' }).click();
            await page.getByRole('dialog').getByRole('link', { name: 'Home' }).click();
          } else {
            await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
          }
        };
        await home();
        await expect.poll(() => dialogs.length).toBe(1);
        expect(dialogs[0]).toEqual({
          type: 'confirm',
          message: 'Your profile changes are not saved. Leave Settings without saving them?',
        });
        // Stayed: on Settings, the removal still staged.
        expect(await page.getByRole('region', { name: 'Profile' }).locator('form').getAttribute('data-unsaved')).toBe(
          'true',
        );
        expect(new URL(page.url()).pathname).toBe('/settings');
        expect(await page.getByRole('button', { name: 'Remove avatar' }).count()).toBe(0);
        if (width === 375) await page.keyboard.press('Escape');
        await shot(page, `settings-unsaved-${width}`);

        // A reload or a close: the browser's own prompt.
        const leaving = await openPage(device);
        await signInViaApi(leaving, account);
        await leaving.goto('/settings');
        await clickHydrated(leaving.getByRole('button', { name: 'Remove banner' }));
        await leaving.getByRole('button', { name: 'Remove banner' }).waitFor({ state: 'detached' });
        const prompt = leaving.waitForEvent('dialog');
        await leaving.close({ runBeforeUnload: true });
        const beforeUnload = await prompt;
        expect(beforeUnload.type()).toBe('beforeunload');
        await beforeUnload.accept();

        // Leaving anyway; and once saved, leaving asks nothing.
        answer = true;
        await home();
        await page.waitForURL('**/home');
        // Settings has gone (the address changes before the page does).
        await page.getByRole('heading', { name: 'Home' }).waitFor();
        expect(dialogs.map((d) => d.type)).toEqual(['confirm', 'confirm']);
        await page.goto('/settings');
        await clickHydrated(page.getByRole('button', { name: 'Remove banner' }));
        await page.getByRole('button', { name: 'Save profile' }).click();
        await page.getByText(TEXTS.userUpdated, { exact: true }).first().waitFor();
        await expect.poll(() => page.getByRole('button', { name: 'Save profile' }).isEnabled()).toBe(true);
        // Saved: the form holds nothing unsaved any more (its re-render may follow the toast).
        const form = page.getByRole('region', { name: 'Profile' }).locator('form');
        await expect.poll(() => form.getAttribute('data-unsaved')).toBe('false');
        await home();
        await page.waitForURL('**/home');
        // Settings has gone (the address changes before the page does).
        await page.getByRole('heading', { name: 'Home' }).waitFor();
        expect(dialogs.map((d) => d.type)).toEqual(['confirm', 'confirm']);
      },
    );
  }

  for (const width of [375, 768, 900, 1024, 1280]) {
    test(
      `the navbar at ${width} px: the wordmark, a labelled Create post, nothing overlapping (item 25)`,
      { timeout: 150_000 },
      async ({ openPage }) => {
        const page = await openPage(at(width));
        const account = await createAccount(page);
        await signInViaApi(page, account);
        await page.goto('/home');
        await page.getByRole('heading', { name: 'Home' }).waitFor();
        const bar = page.getByTestId('navbar');
        const logo = bar.getByRole('link', { name: 'Posts', exact: true });
        // The wordmark is drawn, not only named.
        expect(await logo.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThan(12);
        const controls = [
          logo,
          bar.getByRole('button', { name: 'Open menu' }),
          bar.getByRole('search'),
          bar.getByRole('button', { name: 'Search by tags' }),
          ...(await bar.getByRole('navigation', { name: 'Main' }).getByRole('link').all()),
          bar.getByRole('button', { name: 'Create post' }),
          bar.getByRole('button', { name: /^Notifications/ }),
          bar.getByRole('link', { name: /^Notifications/ }),
          bar.getByRole('button', { name: 'Account menu' }),
        ];
        const boxes: { name: string; x: number; y: number; width: number; height: number }[] = [];
        for (const control of controls) {
          if (!(await control.isVisible())) continue;
          const box = (await control.boundingBox())!;
          boxes.push({
            name: (await control.innerText()).trim() || ((await control.getAttribute('aria-label')) ?? ''),
            ...box,
          });
        }
        const barBox = (await bar.boundingBox())!;
        for (const box of boxes) {
          expect(box.x, box.name).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, box.name).toBeLessThanOrEqual(width);
          expect(box.y, box.name).toBeGreaterThanOrEqual(barBox.y);
          expect(box.y + box.height, box.name).toBeLessThanOrEqual(barBox.y + barBox.height);
        }
        const sorted = boxes.toSorted((a, b) => a.x - b.x);
        for (let i = 1; i < sorted.length; i++)
          expect(sorted[i].x, `${sorted[i - 1].name} | ${sorted[i].name}`).toBeGreaterThanOrEqual(
            sorted[i - 1].x + sorted[i - 1].width,
          );
        if (width >= 768) {
          // Create post says so, on one line, as each of the links does.
          const create = bar.getByRole('button', { name: 'Create post' });
          expect((await create.innerText()).trim()).toBe('Create post');
          const height = (await create.boundingBox())!.height;
          expect(height).toBeLessThanOrEqual(40);
          for (const link of await bar.getByRole('navigation', { name: 'Main' }).getByRole('link').all())
            expect((await link.boundingBox())!.height).toBeLessThanOrEqual(36);
          // The search is a button opening it under the bar where the bar has no room for it.
          if (width < 1024) {
            await bar.getByRole('button', { name: 'Search by tags' }).click();
            const search = page.getByRole('search', { name: 'Search posts by tags' });
            await expect.poll(() => search.evaluate((el) => el.contains(document.activeElement))).toBe(true);
            expect((await search.boundingBox())!.y).toBeGreaterThanOrEqual(barBox.y + barBox.height - 1);
            await bar.getByRole('button', { name: 'Search by tags' }).click();
          }
        }
        expect(await noSideScroll(page)).toBe(true);
        for (const theme of themes) {
          const themed = await openPage(at(width));
          await useTheme(themed, theme);
          await signInViaApi(themed, account);
          await themed.goto('/home');
          await themed.getByRole('heading', { name: 'Home' }).waitFor();
          await themed.screenshot({
            path: path.join(SHOTS, `navbar-${theme}-${width}.png`),
            clip: { x: 0, y: 0, width, height: 72 },
          });
        }
      },
    );
  }
});
