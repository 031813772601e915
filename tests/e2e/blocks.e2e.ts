import type { Page } from 'playwright-core';
import { clickHydrated, expect, test } from './browser';
import { createPostViaApi, signInViaApi } from './content';
import { createAccount } from './users';

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).last();

describe('blocks', () => {
  test('block from the profile (after a confirm) takes their post out of my feed; unblock from Settings', async ({
    openPage,
  }) => {
    const authorPage = await openPage();
    const author = await createAccount(authorPage);
    await signInViaApi(authorPage, author);
    await createPostViaApi(authorPage, { message: 'Kites over the dunes', tags: ['kites'] });

    const page = await openPage();
    const reader = await createAccount(page);
    await signInViaApi(page, reader);
    expect((await page.request.patch(`/api/users/${author.username}/follow`)).status()).toBe(200);
    await page.goto('/home');
    await page.getByRole('article').filter({ hasText: 'Kites over the dunes' }).waitFor();

    await page.goto(`/profile/${author.username}`);
    // Block is in the profile's "…" menu (issue 68, item 9).
    await clickHydrated(page.getByRole('button', { name: `More actions for ${author.username}` }));
    await page.getByRole('menuitem', { name: 'Block', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Block ${author.username}?` });
    await dialog.getByRole('button', { name: 'Block', exact: true }).click();
    await toast(page, `You blocked ${author.username}`).waitFor();
    await page.getByRole('button', { name: 'Unblock', exact: true }).waitFor();
    await page.getByRole('heading', { name: `You blocked ${author.username}` }).waitFor();
    // The block ended the follow: no Unfollow, and no Follow until unblocked.
    expect(await page.getByRole('button', { name: 'Unfollow' }).count()).toBe(0);

    await page.goto('/home');
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    expect(await page.getByText('Kites over the dunes').count()).toBe(0);

    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Blocked and muted' });
    const unblock = section.getByRole('button', { name: `Unblock ${author.username}` });
    await unblock.click();
    await toast(page, `You unblocked ${author.username}`).waitFor();
    await section.getByText('You have not blocked anyone.').waitFor();

    await page.goto(`/profile/${author.username}`);
    await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
    await clickHydrated(page.getByRole('button', { name: `More actions for ${author.username}` }));
    await page.getByRole('menuitem', { name: 'Mute', exact: true }).waitFor();
  });
});
