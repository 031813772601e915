/**
 * Issue 76, item 1, in Chromium: Settings' "Import from Instagram" takes an archive in Instagram's
 * layout, lists the posts found (all picked), imports the ones kept picked with progress in the
 * page, and the profile shows them at their original dates. Screenshots at 375 and 1280 px, the
 * three themes, under test-results/e2e/instagram/; axe on the section.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { instagramArchive } from '../server/instagramArchive';
import { axeViolations } from './axe';
import { DESKTOP, MOBILE, RESULTS_DIR, clickHydrated, expect, test } from './browser';
import { signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount } from './users';

const DIR = path.join(RESULTS_DIR, 'instagram');
const seconds = (iso: string) => Date.parse(iso) / 1000;

const POSTS = [
  { timestamp: seconds('2018-06-01T09:00:00Z'), caption: 'Été à Lisboa ☀️ #lisboa', photos: ['201806/a.jpg'] },
  {
    timestamp: seconds('2019-02-14T18:30:00Z'),
    caption: 'Three at the market #market',
    photos: ['201902/b1.jpg', '201902/b2.jpg', '201902/b3.jpg'],
  },
  { timestamp: seconds('2020-11-20T12:00:00Z'), caption: 'Not this one', photos: ['202011/c.jpg'] },
];

describe('Import from Instagram', () => {
  test(
    'uploads an archive, picks, imports and shows the posts at their dates',
    { timeout: 180_000 },
    async ({ openPage }) => {
      const page = await openPage(DESKTOP);
      const me = await createAccount(page);
      await signInViaApi(page, me);
      await page.goto('/settings#instagram');
      const section = page.getByRole('region', { name: 'Import from Instagram' });
      await section.waitFor();

      // Something that is no archive: the server's words.
      await section.getByLabel('Instagram archive or Posts export (zip)').setInputFiles({
        name: 'notes.zip',
        mimeType: 'application/zip',
        buffer: Buffer.from('not a zip'),
      });
      await clickHydrated(section.getByRole('button', { name: 'Upload the archive' }));
      await section.getByRole('alert').filter({ hasText: 'not a zip archive' }).waitFor();

      await section.getByLabel('Instagram archive or Posts export (zip)').setInputFiles({
        name: 'instagram.zip',
        mimeType: 'application/zip',
        buffer: await instagramArchive(POSTS),
      });
      await section.getByRole('button', { name: 'Upload the archive' }).click();
      await section.getByRole('heading', { name: '3 posts found' }).waitFor();
      const found = section.getByRole('list', { name: 'Posts found in the archive' });
      await found.getByText('Été à Lisboa ☀️ #lisboa').waitFor();
      await found.getByText('Feb 14, 2019 · 3 photos').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await section.screenshot({ path: path.join(mkdirOnce(), 'found-1280.png') });

      await found.getByRole('checkbox', { name: /Not this one/ }).uncheck();
      await section.getByRole('button', { name: 'Import 2 posts' }).click();
      const progress = section.getByTestId('instagram-import-progress');
      await progress.getByText('Import finished').waitFor();
      await progress.getByText('2 of 2 posts imported').waitFor();
      expect(await axeViolations(page)).toEqual([]);

      await page.goto(`/profile/${me.username}`);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(mkdirOnce(), 'profile-1280.png'), fullPage: true });
      const posts = (await (await page.request.get(`/api/users/${me.username}/posts`)).json()) as {
        _id: string;
        message: string;
        createdAt: string;
        images: unknown[];
      }[];
      expect(posts.map((p) => [p.message, p.createdAt, p.images.length])).toEqual([
        ['Three at the market #market', '2019-02-14T18:30:00.000Z', 3],
        ['Été à Lisboa ☀️ #lisboa', '2018-06-01T09:00:00.000Z', 1],
      ]);
      // The post's page dates it at its original time.
      await page.goto(`/post/${posts[1]._id}`);
      await page.locator('time[datetime="2018-06-01T09:00:00.000Z"]').first().waitFor();
      await page.screenshot({ path: path.join(mkdirOnce(), 'post-1280.png') });
    },
  );

  for (const [size, device, width] of [
    ['375', MOBILE, 375],
    ['1280', DESKTOP, 1280],
  ] as const)
    test(`the posts found, at ${size} px in every theme`, { timeout: 240_000 }, async ({ openPage }) => {
      const archive = await instagramArchive(POSTS);
      for (const theme of themes) {
        const page = await openPage(device);
        await useTheme(page, theme);
        const account = await createAccount(page);
        await signInViaApi(page, account);
        await page.goto('/settings#instagram');
        const section = page.getByRole('region', { name: 'Import from Instagram' });
        await section.waitFor();
        await section.getByLabel('Instagram archive or Posts export (zip)').setInputFiles({
          name: 'instagram.zip',
          mimeType: 'application/zip',
          buffer: archive,
        });
        await clickHydrated(section.getByRole('button', { name: 'Upload the archive' }));
        await section.getByRole('heading', { name: '3 posts found' }).waitFor();
        await section.scrollIntoViewIfNeeded();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await section.screenshot({ path: path.join(mkdirOnce(), `found-${size}-${theme}.png`) });
        await page.close();
      }
    });
});

function mkdirOnce(): string {
  mkdirSync(DIR, { recursive: true });
  return DIR;
}
