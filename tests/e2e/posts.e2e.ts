import type { Page } from 'playwright-core';
import { TEXTS } from '../../lib/texts';
import { clickHydrated, expect, test } from './browser';
import { createPostViaApi, dropFile, makeImage, signInViaApi } from './content';
import { createAccount } from './users';

async function signedInHome(page: Page) {
  const account = await createAccount(page);
  await signInViaApi(page, account);
  await page.goto('/home');
  await page.getByRole('heading', { name: 'Home' }).waitFor();
  return account;
}

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).last();

describe('create a post', () => {
  test('drop images, add tags with Enter, publish: the post shows in the feed with its image', async ({ openPage }) => {
    const page = await openPage();
    await signedInHome(page);
    await clickHydrated(page.getByRole('button', { name: 'Create post' }).first());
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const publish = dialog.getByRole('button', { name: 'Publish' });
    expect(await publish.isDisabled()).toBe(true);
    await expect.poll(() => dialog.getByText(TEXTS.uploadHint).count()).toBeGreaterThan(0);

    // A PNG first, then a JPEG joins it (an album, issue 71); progress shows while each uploads
    // (slowed down to be seen).
    await page.route('**/api/uploads', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    const thumbs = dialog.locator('[data-testid="photo-card"] img[src*="/media/post/"]');
    await dropFile(page, 'post-dropzone', {
      name: 'first.png',
      type: 'image/png',
      bytes: await makeImage('png', 1600, 1200, 120),
    });
    await dialog.getByRole('progressbar', { name: 'Uploading photo 1' }).waitFor();
    await expect.poll(() => thumbs.count(), { timeout: 15_000 }).toBe(1);
    const firstUpload = await thumbs.first().getAttribute('src');
    expect(await publish.isDisabled()).toBe(true); // an image but no tag yet
    await dropFile(page, 'post-dropzone', {
      name: 'second.jpg',
      type: 'image/jpeg',
      bytes: await makeImage('jpeg', 1200, 900, 300),
    });
    await expect.poll(() => thumbs.count(), { timeout: 15_000 }).toBe(2);
    expect(await thumbs.first().getAttribute('src')).toBe(firstUpload);
    await dialog.getByRole('progressbar').waitFor({ state: 'detached' });

    await dialog.getByLabel('Message').fill('Golden hour at the pier');
    const tagInput = dialog.getByLabel('Tags', { exact: true });
    for (const tag of ['pier', 'sunset', 'pier']) {
      await tagInput.fill(tag);
      await tagInput.press('Enter');
      expect(await tagInput.inputValue()).toBe('');
    }
    const chips = dialog.getByRole('list', { name: 'Added tags' }).getByRole('listitem');
    expect(await chips.count()).toBe(2); // the duplicate was ignored
    expect(await publish.isDisabled()).toBe(false);
    await publish.click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.getByRole('article').filter({ hasText: 'Golden hour at the pier' });
    await card.waitFor();
    expect(await card.getByRole('link', { name: '#pier' }).count()).toBe(1);
    const image = card.locator('img[src*="/media/post/"]').first();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });

  test('a too-big file and a wrong type show the spec messages', async ({ openPage }) => {
    const page = await openPage();
    await signedInHome(page);
    await clickHydrated(page.getByRole('button', { name: 'Create post' }).first());
    await dropFile(page, 'post-dropzone', { name: 'huge.jpg', type: 'image/jpeg', bytes: Buffer.alloc(4194304, 1) });
    await toast(page, TEXTS.fileTooBig).waitFor();
    await dropFile(page, 'post-dropzone', {
      name: 'notes.txt',
      type: 'text/plain',
      bytes: Buffer.from('not an image'),
    });
    await expect.poll(() => page.getByText(/Allowed Formats: JPEG, PNG/).count()).toBeGreaterThan(1);
  });
});

describe('edit and delete', () => {
  test('edit shows "Post has been edited", delete shows "Post has been deleted"', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInViaApi(page, account);
    await createPostViaApi(page, { message: 'Before the edit', tags: ['draft'] });
    await page.goto('/home');
    const card = page.getByRole('article').filter({ hasText: 'Before the edit' });
    await clickHydrated(card.getByRole('button', { name: 'Edit post' }));
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Edit' }).waitFor();
    await dialog.getByLabel('Message').fill('After the edit');
    await dialog.getByRole('button', { name: 'Edit', exact: true }).click();
    await toast(page, TEXTS.postEdited).waitFor();
    const edited = page.getByRole('article').filter({ hasText: 'After the edit' });
    await edited.waitFor();

    await edited.getByRole('button', { name: 'Delete post' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, TEXTS.postDeleted).waitFor();
    await edited.waitFor({ state: 'detached' });
  });
});
