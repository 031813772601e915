/**
 * Photos shown whole (issue 68, item 2): the post page shows the whole photo at its own ratio and
 * opens a full view by click or keyboard.
 */
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, expect, test } from './browser';
import { clickHydrated } from './browser';
import { dropFile, makeImage, signInViaApi } from './content';
import { createAccount } from './users';

/** Uploads a `width`×`height` photo and posts it; returns the post's id. */
async function postPhoto(page: Page, width: number, height: number, message: string): Promise<string> {
  const upload = await page.request.post('/api/uploads', {
    multipart: {
      upload_preset: 'post',
      file: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await makeImage('jpeg', width, height, 40) },
    },
  });
  expect(upload.status()).toBe(201);
  const res = await page.request.post('/api/posts/create', {
    data: { message, tags: ['whole'], image: (await upload.json()).secure_url },
  });
  expect(res.status()).toBe(201);
  return (await res.json())._id;
}

/** The rendered box of the image and what is drawn in it. */
const boxOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((img: HTMLImageElement) => {
    const rect = img.getBoundingClientRect();
    return {
      width: rect.width,
      height: rect.height,
      fit: getComputedStyle(img).objectFit,
      loaded: img.complete && img.naturalWidth > 0,
    };
  });

const photos = [
  { name: 'a 2000×250 panorama', width: 2000, height: 250 },
  { name: 'a 600×1600 portrait', width: 600, height: 1600 },
];

describe.each([
  ['375', MOBILE],
  ['1280', DESKTOP],
])('post page at %s px', (_width, device) => {
  for (const { name, width, height } of photos)
    test(`shows ${name} whole, and opens and closes its full view by click and by keyboard`, async ({ openPage }) => {
      const page = await openPage(device);
      const account = await createAccount(page);
      await signInViaApi(page, account);
      const id = await postPhoto(page, width, height, `whole ${width}x${height}`);
      await page.goto(`/post/${id}`);
      const open = page.getByRole('button', { name: /open full view/ });
      await open.waitFor();
      const photo = 'article img[src*="/media/post/"]';
      await expect.poll(async () => (await boxOf(page, photo)).loaded).toBe(true);
      const box = await boxOf(page, photo);
      // The whole photo: its box has the photo's own ratio, and nothing is cropped.
      expect(box.width / box.height / (width / height), 'page box').toBeCloseTo(1, 2);
      expect(['contain', 'fill']).toContain(box.fit);
      // Within the column and the window.
      const viewport = page.viewportSize()!;
      expect(box.width).toBeLessThanOrEqual(viewport.width);
      expect(box.height).toBeLessThanOrEqual(viewport.height);

      // Click opens the full view: the largest variant at its own ratio.
      await open.click();
      const dialog = page.getByRole('dialog', { name: 'Photo, full view' });
      await dialog.waitFor();
      const full = await boxOf(page, '[role="dialog"] img');
      await expect.poll(async () => (await boxOf(page, '[role="dialog"] img')).loaded).toBe(true);
      const shown = await boxOf(page, '[role="dialog"] img');
      expect(shown.width / shown.height / (width / height), 'full view box').toBeCloseTo(1, 2);
      expect(full.fit).toBe('contain');
      // Escape closes it and focus is back on the photo.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await open.evaluate((el) => el === document.activeElement)).toBe(true);

      // The keyboard opens it too (Enter, then Space), and Close closes it.
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      await open.focus();
      await page.keyboard.press('Space');
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await open.evaluate((el) => el === document.activeElement)).toBe(true);
    });
});

describe('composer crop (issue 68, item 2)', () => {
  /** Opens the composer on /home with a 2000×500 photo in it (wider than the feed box: it moves across). */
  async function composerWithPhoto(page: Page, message: string, signedIn = false) {
    if (!signedIn) {
      await signInViaApi(page, await createAccount(page));
      await page.goto('/home');
    }
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    if ((page.viewportSize()?.width ?? 0) < 600) {
      // On a phone the composer is in the menu.
      await clickHydrated(page.getByRole('button', { name: 'Open menu' }));
      await page.getByRole('button', { name: 'Create post' }).last().click();
    } else {
      await clickHydrated(page.getByRole('banner').getByRole('button', { name: 'Create post' }));
    }
    const dialog = page.getByRole('dialog', { name: 'Create post' });
    await dialog.waitFor();
    await dropFile(page, 'post-dropzone', {
      name: 'wide.jpg',
      type: 'image/jpeg',
      bytes: await makeImage('jpeg', 2000, 500, 90),
    });
    const picker = dialog.getByTestId('crop-picker');
    await picker.waitFor({ timeout: 15_000 });
    await dialog.getByLabel('Message').fill(message);
    await dialog.getByLabel('Tags', { exact: true }).fill('crop');
    await dialog.getByLabel('Tags', { exact: true }).press('Enter');
    return { dialog, picker };
  }
  const feedImage = (page: Page, message: string) =>
    page.getByRole('article').filter({ hasText: message }).locator('img[src*="/media/post/"]').first();

  for (const [size, device] of [
    ['375', MOBILE],
    ['1280', DESKTOP],
  ] as const)
    test(`at ${size} px: arrow keys move the crop the feed uses, and Fit shows the whole photo`, async ({
      openPage,
    }) => {
      const page = await openPage(device);
      const moved = `moved crop ${size}`;
      const { dialog, picker } = await composerWithPhoto(page, moved);
      const preview = picker.locator('img');
      expect(await preview.evaluate((img) => getComputedStyle(img).objectPosition)).toBe('50% 50%');
      await picker.focus();
      for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
      // Only the overflowing axis moves: this photo is wider than its box.
      await page.keyboard.press('ArrowDown');
      expect(await preview.evaluate((img) => getComputedStyle(img).objectPosition)).toBe('70% 50%');
      await dialog.getByRole('button', { name: 'Publish' }).click();
      await dialog.waitFor({ state: 'detached' });
      const image = feedImage(page, moved);
      await image.waitFor();
      expect(await image.evaluate((img) => getComputedStyle(img).objectPosition)).toBe('70% 50%');
      expect(await image.evaluate((img) => getComputedStyle(img).objectFit)).toBe('cover');

      const fitted = `fitted crop ${size}`;
      const second = await composerWithPhoto(page, fitted, true);
      await second.dialog.getByLabel('Fit (whole photo)').check();
      await second.dialog.getByRole('button', { name: 'Publish' }).click();
      await second.dialog.waitFor({ state: 'detached' });
      const whole = feedImage(page, fitted);
      await whole.waitFor();
      expect(await whole.evaluate((img) => getComputedStyle(img).objectFit)).toBe('contain');
    });
});
