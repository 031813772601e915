/**
 * Albums in the browser (issue 71, item 3): the carousel in a feed at 375 px (a touch swipe, Next,
 * a double tap on a later photo), on the post page at 1280 px (a sideways wheel, ←/→, the buttons,
 * the full view), the album's mark on the profile grid, no layout shift on the album's page, axe,
 * and screenshots in the three themes under test-results/e2e/albums/.
 *
 * Each test makes its own person and album and finds it by a tag of its own, so no other file's
 * data is in its lists; every step waits for a state (the "2 of 4" the carousel announces, a photo
 * loaded, hydration), never for time.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { THEMES } from '../../lib/limits';
import { axeViolations } from './axe';
import { DESKTOP, MOBILE, RESULTS_DIR, clickHydrated, expect, test } from './browser';
import { type AlbumPhoto, createAlbumViaApi, createPostViaApi, signInViaApi } from './content';
import { createAccount } from './users';

const DIR = path.join(RESULTS_DIR, 'albums');

/** Four photos of different shapes, so a box taken from the wrong photo shows. */
const PHOTOS: AlbumPhoto[] = [
  { width: 1200, height: 800, alt: 'A red landscape' },
  { width: 600, height: 900, alt: 'A tall green tower' },
  { width: 800, height: 800, alt: 'A blue square' },
  { width: 1600, height: 600, alt: 'A wide purple panorama' },
];

/** Four uploads processed, axe and screenshots in three themes: over the suite's minute on a busy machine. */
const SLOW = { timeout: 180_000 };

const uniqueTag = () => `album${Math.random().toString(36).slice(2, 10)}`;

/** A signed-in person with an album of PHOTOS under a tag nobody else uses. */
async function personWithAlbum(page: Page) {
  const account = await createAccount(page);
  await signInViaApi(page, account);
  const tag = uniqueTag();
  const post = await createAlbumViaApi(page, { message: 'Four photos', tags: [tag], photos: PHOTOS });
  expect(post.images).toHaveLength(PHOTOS.length);
  return { account, tag, post };
}

const carouselOf = (page: Page, username: string) => page.getByRole('group', { name: `Photos by ${username}` });
const slide = (carousel: Locator, n: number) => carousel.getByRole('group', { name: `${n} of ${PHOTOS.length}` });
/** What the carousel announces: "2 of 4". */
const position = (carousel: Locator) => carousel.locator('[aria-live="polite"]');

/** The carousel's controls carry React's handlers: a swipe's scroll is followed from now on. */
async function hydrated(carousel: Locator) {
  await expect
    .poll(() =>
      carousel
        .locator('[data-album-track]')
        .first()
        .evaluate((el) => Object.keys(el).some((key) => key.startsWith('__reactProps$'))),
    )
    .toBe(true);
}

/** Photo `n`'s image has arrived (its bytes decoded), shown or not. */
const arrived = (carousel: Locator, n: number) =>
  slide(carousel, n)
    .locator('img')
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

/** Which slides are interactive (not inert), by their label. */
const liveSlides = (carousel: Locator) =>
  carousel
    .locator('[data-album-track] > *')
    .evaluateAll((slides) => slides.filter((s) => !s.hasAttribute('inert')).map((s) => s.getAttribute('aria-label')));

/** The height of every slide's photo box. */
const boxHeights = (carousel: Locator) =>
  carousel
    .locator('[data-album-track] img')
    .evaluateAll((imgs) => imgs.map((img) => Math.round(img.parentElement!.getBoundingClientRect().height)));

/**
 * A finger's swipe to the left across `target` through the DevTools protocol: touch start, moves,
 * end, as a phone's touchscreen sends them (the browser scrolls and snaps the track itself).
 */
async function swipeLeft(page: Page, target: Locator) {
  const box = (await target.boundingBox())!;
  const y = Math.round(box.y + box.height / 2);
  const from = Math.round(box.x + box.width * 0.85);
  const to = Math.round(box.x + box.width * 0.15);
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  await touch('touchStart', from);
  const steps = 12;
  for (let i = 1; i <= steps; i++) await touch('touchMove', Math.round(from + ((to - from) * i) / steps));
  await touch('touchEnd', to);
  await cdp.detach();
}

async function shootThemes(page: Page, name: string) {
  mkdirSync(DIR, { recursive: true });
  for (const theme of THEMES) {
    // A theme is one attribute on <html> (docs/frontend.md): no reload needed.
    await page.evaluate((value) => {
      document.documentElement.dataset.theme = value;
    }, theme);
    await page.screenshot({ path: path.join(DIR, `${name}-${theme}.png`) });
  }
}

describe('albums (issue 71, item 3)', () => {
  test(
    'a feed at 375 px: swipe, Next, the next photo preloaded, a double tap on photo 2 likes',
    SLOW,
    async ({ openPage }) => {
      const page = await openPage(MOBILE);
      const { account, tag } = await personWithAlbum(page);
      await page.goto(`/tagged/${tag}`);
      const carousel = carouselOf(page, account.username);
      await carousel.waitFor();
      await hydrated(carousel);
      await expect.poll(() => position(carousel).textContent()).toBe('1 of 4');
      expect(await liveSlides(carousel)).toEqual(['1 of 4']);
      // One box for the album, from the first photo's stored size (3:2), every slide the same.
      const heights = await boxHeights(carousel);
      expect(new Set(heights).size).toBe(1);
      const width = await carousel
        .locator('[data-album-track]')
        .first()
        .evaluate((el) => el.clientWidth);
      expect(heights[0]).toBeCloseTo((width * 800) / 1200, -1);
      // The photo after the one shown is fetched before it is asked for.
      await expect.poll(() => arrived(carousel, 2)).toBe(true);
      const cardHeight = () =>
        page
          .locator('article')
          .first()
          .evaluate((el) => el.getBoundingClientRect().height);
      const before = await cardHeight();
      await shootThemes(page, 'feed-375-photo1');

      // A touch swipe to the left: the browser's scroll-snap moves one photo.
      await carousel.scrollIntoViewIfNeeded();
      await swipeLeft(page, slide(carousel, 1));
      await expect.poll(() => position(carousel).textContent()).toBe('2 of 4');
      await expect.poll(() => liveSlides(carousel)).toEqual(['2 of 4']);
      await expect.poll(() => arrived(carousel, 3)).toBe(true);
      expect(await cardHeight()).toBe(before);

      // A double tap on photo 2 likes the post, with the heart over that photo.
      const like = page.getByRole('button', { name: /^Like post/ });
      await expect.poll(() => like.getAttribute('aria-pressed')).toBe('false');
      await slide(carousel, 2).locator('img').dblclick();
      await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
      expect(page.url()).toContain(`/tagged/${tag}`);

      // Next, then Next again to the last: Next goes, Previous stays.
      await carousel.getByRole('button', { name: 'Next photo' }).click();
      await expect.poll(() => position(carousel).textContent()).toBe('3 of 4');
      await shootThemes(page, 'feed-375-photo3');
      await carousel.getByRole('button', { name: 'Next photo' }).click();
      await expect.poll(() => position(carousel).textContent()).toBe('4 of 4');
      await expect(carousel.getByRole('button', { name: 'Next photo' }).isHidden()).resolves.toBe(true);
      await expect(carousel.getByRole('button', { name: 'Previous photo' }).isVisible()).resolves.toBe(true);
      expect(await cardHeight()).toBe(before);
      expect(await axeViolations(page)).toEqual([]);
    },
  );

  test(
    'the post page at 1280 px: no layout shift, wheel, ←/→, buttons, the full view, axe',
    SLOW,
    async ({ openPage }) => {
      const page = await openPage(DESKTOP);
      const { account, post } = await personWithAlbum(page);
      // Shifts are recorded from the document's start (buffered).
      await page.goto(`/post/${post._id}`);
      const carousel = carouselOf(page, account.username);
      await carousel.waitFor();
      await hydrated(carousel);
      await expect.poll(() => arrived(carousel, 1)).toBe(true);
      await expect.poll(() => arrived(carousel, 2)).toBe(true);
      await page.waitForLoadState('networkidle');
      const shift = await page.evaluate(() => {
        const observer = new PerformanceObserver(() => {});
        observer.observe({ type: 'layout-shift', buffered: true });
        const entries = observer.takeRecords() as (PerformanceEntry & { value: number })[];
        observer.disconnect();
        return entries.reduce((sum, e) => sum + e.value, 0);
      });
      expect(shift).toBe(0);
      // Each photo whole, at its own ratio, from its stored size.
      const ratios = await carousel
        .locator('[data-album-track] img')
        .evaluateAll((imgs) =>
          imgs.map((img) => img.getBoundingClientRect()).map((r) => Math.round((r.width / r.height) * 100) / 100),
        );
      expect(ratios).toEqual([1.5, 0.67, 1, 2.67]);
      expect(await axeViolations(page)).toEqual([]);
      await shootThemes(page, 'post-1280-photo1');

      // A sideways wheel (a trackpad's swipe): one photo on.
      const track = (await carousel.locator('[data-album-track]').boundingBox())!;
      await page.mouse.move(track.x + track.width / 2, track.y + track.height / 2);
      await page.mouse.wheel(track.width * 0.6, 0);
      await expect.poll(() => position(carousel).textContent()).toBe('2 of 4');
      await expect.poll(() => liveSlides(carousel)).toEqual(['2 of 4']);

      // ←/→ while focus is inside: the focus follows the photo shown.
      const openButton = (n: number) => slide(carousel, n).getByRole('button', { name: /open full view/ });
      await openButton(2).focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => position(carousel).textContent()).toBe('3 of 4');
      await expect.poll(() => openButton(3).evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => position(carousel).textContent()).toBe('2 of 4');
      // A modifier leaves the keys to the browser.
      await page.keyboard.press('Alt+ArrowRight').catch(() => {});
      expect(await position(carousel).textContent()).toBe('2 of 4');

      // The buttons.
      await carousel.getByRole('button', { name: 'Previous photo' }).click();
      await expect.poll(() => position(carousel).textContent()).toBe('1 of 4');
      await expect(carousel.getByRole('button', { name: 'Previous photo' }).isHidden()).resolves.toBe(true);
      await carousel.getByRole('button', { name: 'Next photo' }).click();
      await expect.poll(() => position(carousel).textContent()).toBe('2 of 4');
      await shootThemes(page, 'post-1280-photo2');

      // The full view opens at the photo shown and moves with the keys; Escape gives focus back to the album.
      await openButton(2).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Photo, full view' });
      await dialog.waitFor();
      const viewer = dialog.getByRole('group', { name: 'Photos' });
      await expect.poll(() => position(viewer).textContent()).toBe('2 of 4');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => position(viewer).textContent()).toBe('3 of 4');
      await expect.poll(() => arrived(viewer, 3)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await shootThemes(page, 'viewer-1280-photo3');
      // Closed on the third photo: the page's album shows it, focus on it.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => position(carousel).textContent()).toBe('3 of 4');
      await expect.poll(() => openButton(3).evaluate((el) => el === document.activeElement)).toBe(true);
    },
  );

  test('the full view at 375 px: a swipe moves through the album', SLOW, async ({ openPage }) => {
    const page = await openPage(MOBILE);
    const { account, post } = await personWithAlbum(page);
    await page.goto(`/post/${post._id}`);
    const carousel = carouselOf(page, account.username);
    await carousel.waitFor();
    await hydrated(carousel);
    await clickHydrated(slide(carousel, 1).getByRole('button', { name: /open full view/ }));
    const dialog = page.getByRole('dialog', { name: 'Photo, full view' });
    const viewer = dialog.getByRole('group', { name: 'Photos' });
    await expect.poll(() => position(viewer).textContent()).toBe('1 of 4');
    await swipeLeft(page, slide(viewer, 1));
    await expect.poll(() => position(viewer).textContent()).toBe('2 of 4');
    await expect.poll(() => arrived(viewer, 2)).toBe(true);
    await shootThemes(page, 'viewer-375-photo2');
  });

  for (const [size, device] of [
    ['375', MOBILE],
    ['1280', DESKTOP],
  ] as const)
    test(
      `the profile grid at ${size} px: the album's first photo with its mark and name`,
      SLOW,
      async ({ openPage }) => {
        const page = await openPage(device);
        const { account, tag, post } = await personWithAlbum(page);
        const single = await createPostViaApi(page, { message: 'One photo', tags: [tag] });
        await page.goto(`/profile/${account.username}`);
        const albumTile = page.locator(`a[href="/post/${post._id}"]`);
        const singleTile = page.locator(`a[href="/post/${single._id}"]`);
        await albumTile.waitFor();
        await expect(albumTile.getAttribute('href')).resolves.toBe(`/post/${post._id}`);
        // Its accessible name: the first photo's alt text, then what it is.
        const name = await page.getByRole('link', { name: 'A red landscape, album of 4 photos' }).count();
        expect(name).toBe(1);
        expect(await albumTile.locator('img').count()).toBe(1);
        expect(await albumTile.locator('[data-album-mark]').isVisible()).toBe(true);
        expect(await singleTile.locator('[data-album-mark]').count()).toBe(0);
        await expect
          .poll(() =>
            albumTile.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
          )
          .toBe(true);
        expect(await axeViolations(page)).toEqual([]);
        await shootThemes(page, `grid-${size}`);
      },
    );
});
