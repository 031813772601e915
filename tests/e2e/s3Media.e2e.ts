/**
 * Media in an S3 bucket, in a real browser: a second production server keeps its uploads on the
 * RADOS Gateway (`scripts/services/s3.sh`), and the pages load the images straight from the bucket
 * under their Content-Security-Policy. Runs with TEST_S3=1 (`.ci/run` sets it and starts the gateway).
 */
import { s3GatewayEnv } from '../server/s3Gateway';
import { clickHydrated, expect, test } from './browser';
import { dropFile, makeImage, signInViaApi } from './content';
import { type RunningServer, startServer } from './server';
import { createAccount } from './users';

const gateway = s3GatewayEnv();

describe.skipIf(!gateway)('media in an S3 bucket', () => {
  const media = gateway?.MEDIA_BASE_URL ?? '';
  let server: RunningServer;
  beforeAll(async () => {
    // The global setup has built the pages already.
    server = await startServer({ build: false, env: gateway! });
  });
  afterAll(async () => {
    await server?.stop();
  });

  test('an image dropped in the composer is stored in the bucket and shown from it, with no CSP violation', async ({
    openPage,
  }) => {
    const page = await openPage({ baseURL: server.baseURL });
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation: (t: string) => void }).reportViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      );
    });
    await signInViaApi(page, await createAccount(page));
    await page.goto('/home');
    await page.getByRole('heading', { name: 'Home' }).waitFor();

    await clickHydrated(page.getByRole('button', { name: 'Create post' }).first());
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dropFile(page, 'post-dropzone', {
      name: 'bucket.jpg',
      type: 'image/jpeg',
      bytes: await makeImage('jpeg', 1600, 1200, 40),
    });
    const loaded = (img: HTMLImageElement) => img.complete && img.naturalWidth > 0;
    // The dropzone's preview (the crop picker under it shows the same image since issue 68, item 2).
    const preview = dialog.locator(`img[src^="${media}/post/"]`).first();
    await expect.poll(() => preview.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => preview.evaluate(loaded)).toBe(true);

    await dialog.getByLabel('Message').fill('Straight from the bucket');
    const tags = dialog.getByLabel('Tags', { exact: true });
    await tags.fill('bucket');
    await tags.press('Enter');
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await dialog.waitFor({ state: 'detached' });

    // In the feed the client just updated, then as the server renders it (its srcset too).
    for (const reload of [false, true]) {
      if (reload) await page.reload();
      const card = page.getByRole('article').filter({ hasText: 'Straight from the bucket' });
      await card.waitFor();
      const image = card.locator(`img[src^="${media}/post/"]`).first();
      await expect.poll(() => image.evaluate(loaded)).toBe(true);
      expect(await image.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(
        new RegExp(`^${media.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/post/`),
      );
    }
    expect(violations).toEqual([]);
  });
});
