/**
 * Issue 68, item 31 in the browser: `@` + letters in the post editor's message and in the comment
 * field opens a list of people (the followed first), picked with the keyboard; Escape closes only
 * the list; what is posted links the mention; axe finds nothing with the list open. At 375 and
 * 1280 px; screenshots of the open list in every theme go to screenshots/mentions/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { TEXTS } from '../../lib/texts';
import { axeViolations } from './axe';
import { clickHydrated, DESKTOP, expect, MOBILE, test } from './browser';
import { createPostViaApi, dropFile, makeImage, signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { type Account, createAccount, newAccount } from './users';

const SHOTS = path.resolve(import.meta.dirname, '../../screenshots/mentions');
mkdirSync(SHOTS, { recursive: true });

const sizes = [
  ['375', MOBILE],
  ['1280', DESKTOP],
] as const;

/**
 * A writer who follows `al_z…`, and `al_a…` whom they do not follow: by name the other comes first,
 * so seeing the friend first is the followed-first order.
 */
async function writerWithFriends(page: Page): Promise<{ writer: Account; friend: Account; other: Account }> {
  const friend = await createAccount(page, newAccount('al_z'));
  const other = await createAccount(page, newAccount('al_a'));
  const writer = await createAccount(page);
  await signInViaApi(page, writer);
  const follow = await page.request.patch(`/api/users/${friend.username}/follow`, { data: {} });
  expect(follow.status()).toBe(200);
  return { writer, friend, other };
}

/** Opens the post editor: from the menu on a phone, from the navbar elsewhere (as defects68.e2e.ts). */
async function openEditor(page: Page, width: string): Promise<Locator> {
  if (width === '375') {
    await clickHydrated(page.getByRole('button', { name: 'Open menu' }));
    await page.getByRole('button', { name: 'Create post' }).last().click();
  } else {
    await clickHydrated(page.getByRole('banner').getByRole('button', { name: 'Create post' }));
  }
  const dialog = page.getByRole('dialog', { name: 'Create post' });
  await dialog.waitFor();
  return dialog;
}

const hydrated = (field: Locator) =>
  expect.poll(() => field.evaluate((el) => Object.keys(el).some((k) => k.startsWith('__reactProps$')))).toBe(true);

/** The listbox the field controls, once it shows people. */
async function openList(page: Page, field: Locator): Promise<Locator> {
  await expect.poll(() => field.getAttribute('aria-expanded'), { timeout: 10_000 }).toBe('true');
  const list = page.locator(`[id="${await field.getAttribute('aria-controls')}"]`);
  await list.getByRole('option').first().waitFor();
  return list;
}

/** Types `@al`, checks the list, Escape, then types `@al` again and picks the friend with the keyboard. */
async function mentionWithKeyboard(page: Page, field: Locator, friend: Account, before: string) {
  await field.click();
  await page.keyboard.type(`${before}@al`);
  let list = await openList(page, field);
  expect(await field.getAttribute('role')).toBe('combobox');
  expect(await field.getAttribute('aria-autocomplete')).toBe('list');
  const options = list.getByRole('option');
  expect(await options.first().innerText()).toContain(`@${friend.username}`);
  expect(await options.first().getAttribute('aria-selected')).toBe('true');
  expect(await field.getAttribute('aria-activedescendant')).toBe(await options.first().getAttribute('id'));
  // How many were found is said in a live region.
  await page.getByText(/^\d+ (person|people) found$/).waitFor({ state: 'attached' });
  expect(await axeViolations(page)).toEqual([]);

  // Escape closes the list only (not the dialog, not the form), and leaves the text as typed.
  await page.keyboard.press('Escape');
  await expect.poll(() => field.getAttribute('aria-expanded')).toBe('false');
  expect(await list.isVisible()).toBe(false);
  expect(await field.getAttribute('aria-activedescendant')).toBeNull();
  expect(await field.inputValue()).toBe(`${before}@al`);

  // Again: ArrowDown moves, ArrowUp comes back, Enter picks (and does not send a comment).
  await field.fill(before);
  await page.keyboard.type('@al');
  list = await openList(page, field);
  if ((await list.getByRole('option').count()) > 1) {
    await page.keyboard.press('ArrowDown');
    expect(await list.getByRole('option').nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await field.getAttribute('aria-activedescendant')).toBe(
      await list.getByRole('option').nth(1).getAttribute('id'),
    );
    await page.keyboard.press('ArrowUp');
  }
  expect(await list.getByRole('option').first().getAttribute('aria-selected')).toBe('true');
  await page.keyboard.press('Enter');
  await expect.poll(() => field.inputValue()).toBe(`${before}@${friend.username} `);
  expect(await field.getAttribute('aria-expanded')).toBe('false');
}

describe('@mention suggestions (issue 68, item 31)', () => {
  for (const [width, viewport] of sizes) {
    test(`in the post editor at ${width}: the followed person first, picked with the keyboard, posted as a link`, async ({
      openPage,
    }) => {
      const page = await openPage(viewport);
      const { friend } = await writerWithFriends(page);
      await page.goto('/home');
      await page.getByRole('heading', { name: 'Home' }).waitFor();
      const dialog = await openEditor(page, width);
      await dropFile(page, 'post-dropzone', { name: 'a.jpg', type: 'image/jpeg', bytes: await makeImage('jpeg') });
      // Uploaded: the preview shows it (the dropzone's, and the crop picker's since issue 68, item 2).
      await expect
        .poll(() => dialog.locator('img[src*="/media/post/"]').count(), { timeout: 15_000 })
        .toBeGreaterThanOrEqual(1);
      const message = dialog.getByLabel('Message');
      await hydrated(message);

      await mentionWithKeyboard(page, message, friend, 'With ');
      expect(await dialog.isVisible()).toBe(true); // Escape closed the list, not the editor
      await page.keyboard.type('at the pier');
      const tag = dialog.getByLabel('Tags', { exact: true });
      await tag.fill('pier');
      await tag.press('Enter');
      await dialog.getByRole('button', { name: 'Publish' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 15_000 });

      const link = page.getByRole('link', { name: `@${friend.username}`, exact: true }).first();
      await link.waitFor({ timeout: 15_000 });
      expect(await link.getAttribute('href')).toBe(`/profile/${friend.username}`);
      await page.getByText(`With @${friend.username} at the pier`).first().waitFor();
    });

    test(`in a comment at ${width}: Enter picks while the list is open, then sends`, async ({ openPage }) => {
      const page = await openPage(viewport);
      const { friend } = await writerWithFriends(page);
      const post = await createPostViaApi(page, { message: 'Who was there?', tags: ['pier'] });
      await page.goto(`/post/${post._id}`);
      const field = page.getByLabel('Write a comment');
      await hydrated(field);

      await mentionWithKeyboard(page, field, friend, 'Thanks ');
      await page.keyboard.type('for the photo');
      await page.keyboard.press('Enter');
      await page.getByText(TEXTS.commentAdded, { exact: true }).first().waitFor();
      const comment = page.getByRole('listitem').filter({ hasText: 'for the photo' });
      await comment.waitFor();
      const link = comment.getByRole('link', { name: `@${friend.username}`, exact: true });
      expect(await link.getAttribute('href')).toBe(`/profile/${friend.username}`);
      await expect.poll(() => field.inputValue()).toBe('');
    });
  }

  for (const theme of themes)
    for (const [width, viewport] of sizes)
      test(`screenshots of the open list, in a comment and the editor, ${theme} at ${width}`, async ({ openPage }) => {
        const page = await openPage(viewport);
        await useTheme(page, theme);
        await writerWithFriends(page);
        const post = await createPostViaApi(page, { message: 'Who was there?', tags: ['pier'] });
        await page.goto(`/post/${post._id}`);
        const field = page.getByLabel('Write a comment');
        await hydrated(field);
        await field.click();
        await page.keyboard.type('Thanks @al');
        await openList(page, field);
        await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.screenshot({ path: path.join(SHOTS, `comment-${theme}-${width}.png`) });

        await page.keyboard.press('Escape');
        const dialog = await openEditor(page, width);
        const message = dialog.getByLabel('Message');
        await hydrated(message);
        await message.click();
        await page.keyboard.type('With @al');
        await openList(page, message);
        await message.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.screenshot({ path: path.join(SHOTS, `editor-${theme}-${width}.png`) });
      });
});
