/**
 * Each post's audience in a browser (issue 70, item 2): Ann publishes a post through the composer
 * for everyone, a stranger reads it (its page, Everyone); Ann makes it followers-only in the edit
 * dialog, and the stranger's next look finds nothing while her follower still reads it, labelled
 * so. Then screenshots for a person to look at, under test-results/e2e/audience/: the composer's
 * audience (in the edit dialog) and a labelled post, at 375 and 1280 px in each theme.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, RESULTS_DIR, clickHydrated, expect, test } from './browser';
import { createPostViaApi, dropFile, makeImage, signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount, newAccount } from './users';

const DIR = path.join(RESULTS_DIR, 'audience');

/** Publishes through the composer: an image, a message, a tag and the audience chosen. */
async function publish(page: Page, message: string, audience: string) {
  await clickHydrated(page.getByRole('button', { name: 'Create post' }).first());
  const dialog = page.getByRole('dialog');
  await dropFile(page, 'post-dropzone', { name: 'a.jpg', type: 'image/jpeg', bytes: await makeImage('jpeg') });
  await expect.poll(() => dialog.locator('img[src*="/media/post/"]').count(), { timeout: 15_000 }).toBeGreaterThan(0);
  await dialog.getByLabel('Message').fill(message);
  await dialog.getByLabel('Tags', { exact: true }).fill('light');
  await dialog.getByLabel('Tags', { exact: true }).press('Enter');
  await dialog.getByLabel('Who can see it').selectOption({ label: audience });
  await clickHydrated(dialog.getByRole('button', { name: 'Publish' }));
  await dialog.waitFor({ state: 'detached' });
}

const card = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text });

describe("a post's audience", () => {
  // The posts' code joins the page with the screens that show posts (docs/frontend.md): Create post
  // on a page without any loads it first.
  test('published from Settings, a page without posts, the post is on Home', async ({ openPage }) => {
    const page = await openPage(DESKTOP);
    await signInViaApi(page, await createAccount(page));
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const message = `From the settings ${Date.now()}`;
    await publish(page, message, 'Public');
    await page.goto('/home');
    await card(page, message).waitFor();
  });

  test('made followers-only in the edit dialog, it leaves a stranger at once and stays the follower’s', async ({
    openPage,
  }) => {
    const annPage = await openPage();
    const ann = await createAccount(annPage, newAccount('ann'));
    await signInViaApi(annPage, ann);
    const fanPage = await openPage();
    const fan = await createAccount(fanPage, newAccount('fan'));
    await signInViaApi(fanPage, fan);
    expect((await fanPage.request.patch(`/api/users/${ann.username}/follow`)).status()).toBe(200);
    const strangerPage = await openPage();
    await signInViaApi(strangerPage, await createAccount(strangerPage, newAccount('stranger')));

    await annPage.goto('/home');
    await annPage.getByRole('heading', { name: 'Home' }).waitFor();
    const message = `Morning light ${Date.now()}`;
    await publish(annPage, message, 'Public');
    await card(annPage, message).getByTestId('post-audience').filter({ hasText: 'Public' }).waitFor();
    const id = (await (await annPage.request.get(`/api/users/${ann.username}/posts`)).json())[0]._id as string;

    await strangerPage.goto(`/post/${id}`);
    await card(strangerPage, message).waitFor();
    await strangerPage.goto('/home?feed=everyone');
    await card(strangerPage, message).waitFor();

    // The edit dialog, as Ann changes who can see it.
    await clickHydrated(card(annPage, message).getByRole('button', { name: 'Edit post' }));
    const dialog = annPage.getByRole('dialog');
    const audience = dialog.getByLabel('Who can see it');
    expect(await audience.inputValue()).toBe('public');
    await audience.selectOption({ label: 'Followers' });
    await dialog.getByText('Your approved followers only').waitFor();
    await clickHydrated(dialog.getByRole('button', { name: 'Edit', exact: true }));
    await dialog.waitFor({ state: 'detached' });
    await card(annPage, message).getByTestId('post-audience').filter({ hasText: 'Followers' }).waitFor();

    await strangerPage.goto(`/post/${id}`);
    await strangerPage
      .getByText(/not found/i)
      .first()
      .waitFor();
    expect(await card(strangerPage, message).count()).toBe(0);
    const everyone = await (await strangerPage.request.get('/api/posts?feed=all')).json();
    expect(everyone.map((p: { _id: string }) => p._id)).not.toContain(id);

    await fanPage.goto('/home');
    await card(fanPage, message).getByTestId('post-audience').filter({ hasText: 'Followers' }).waitFor();
  });

  for (const [size, device] of [
    ['375', MOBILE],
    ['1280', DESKTOP],
  ] as const)
    test(`screenshots at ${size} px in every theme`, { timeout: 300_000 }, async ({ openPage }) => {
      mkdirSync(DIR, { recursive: true });
      for (const theme of themes) {
        const page = await openPage(device);
        await useTheme(page, theme);
        const account = await createAccount(page, newAccount('shots'));
        await signInViaApi(page, account);
        const made = await createPostViaApi(page, { message: 'For my followers', tags: ['quiet'] });
        await page.request.patch(`/api/posts/${made._id}/manage`, { data: { post: { audience: 'followers' } } });
        await page.goto('/home');
        await card(page, 'For my followers').getByTestId('post-audience').filter({ hasText: 'Followers' }).waitFor();
        await card(page, 'For my followers').screenshot({ path: path.join(DIR, `post-${theme}-${size}.png`) });
        // The edit dialog: the composer's form, with the post's own audience to start from.
        await clickHydrated(card(page, 'For my followers').getByRole('button', { name: 'Edit post' }));
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Who can see it').selectOption({ label: 'Mentioned' });
        await dialog.getByText('Only the people you @mention').waitFor();
        await dialog.getByLabel('Who can see it').scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(DIR, `composer-${theme}-${size}.png`) });
      }
    });
});
