/**
 * Screenshots for a person to look at (issue 68, item 2): the post page with a panorama, its full
 * view and the composer's crop, at 375 and 1280 px in each theme, under test-results/e2e/photos/.
 * What they must show is asserted in photos.e2e.ts; this only checks each view is there.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DESKTOP, MOBILE, RESULTS_DIR, clickHydrated, test } from './browser';
import { dropFile, makeImage, signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount } from './users';

const DIR = path.join(RESULTS_DIR, 'photos');

describe('photo views, photographed', () => {
  for (const [size, device] of [
    ['375', MOBILE],
    ['1280', DESKTOP],
  ] as const)
    test(
      `post page, full view and composer at ${size} px in every theme`,
      { timeout: 240_000 },
      async ({ openPage }) => {
        mkdirSync(DIR, { recursive: true });
        for (const theme of themes) {
          const page = await openPage(device);
          await useTheme(page, theme);
          const account = await createAccount(page);
          await signInViaApi(page, account);
          const upload = await page.request.post('/api/uploads', {
            multipart: {
              upload_preset: 'post',
              file: { name: 'p.jpg', mimeType: 'image/jpeg', buffer: await makeImage('jpeg', 2000, 250, 30) },
            },
          });
          const created = await page.request.post('/api/posts/create', {
            data: { message: 'A panorama', tags: ['wide'], image: (await upload.json()).secure_url },
          });
          const id = (await created.json())._id;
          const shot = (name: string) => page.screenshot({ path: path.join(DIR, `${name}-${size}-${theme}.png`) });

          await page.goto(`/post/${id}`);
          const open = page.getByRole('button', { name: /open full view/ });
          await open.waitFor();
          await page.waitForLoadState('networkidle');
          await shot('post');
          await clickHydrated(open);
          await page.getByRole('dialog').waitFor();
          await page.waitForLoadState('networkidle');
          await shot('fullview');
          await page.keyboard.press('Escape');

          await page.goto('/home');
          await page.getByRole('heading', { name: 'Home' }).waitFor();
          if (size === '375') {
            await clickHydrated(page.getByRole('button', { name: 'Open menu' }));
            await page.getByRole('button', { name: 'Create post' }).last().click();
          } else {
            await clickHydrated(page.getByRole('banner').getByRole('button', { name: 'Create post' }));
          }
          await page.getByRole('dialog').waitFor();
          await dropFile(page, 'post-dropzone', {
            name: 'tall.jpg',
            type: 'image/jpeg',
            bytes: await makeImage('jpeg', 600, 1600, 200),
          });
          await page.getByTestId('crop-picker').waitFor({ timeout: 15_000 });
          await page.getByTestId('crop-picker').focus();
          await page.keyboard.press('ArrowUp');
          await page.getByTestId('crop-picker').scrollIntoViewIfNeeded();
          await page.waitForLoadState('networkidle');
          await shot('composer');
        }
      },
    );
});
