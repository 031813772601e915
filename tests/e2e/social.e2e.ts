import type { Page } from 'playwright-core';
import { TEXTS } from '../../lib/texts';
import { clickHydrated, expect, test, waitHydrated } from './browser';
import { createPostViaApi, signInViaApi } from './content';
import { createAccount } from './users';

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).last();

describe('a second user', () => {
  test('follows, sees the post in Following, reacts, comments, likes a comment, unfollows', async ({ openPage }) => {
    const authorPage = await openPage();
    const author = await createAccount(authorPage);
    await signInViaApi(authorPage, author);
    const post = await createPostViaApi(authorPage, { message: 'Fog over the harbour', tags: ['harbour'] });

    const page = await openPage();
    const reader = await createAccount(page);
    await signInViaApi(page, reader);
    await page.goto('/home');
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    expect(await page.getByText('Fog over the harbour').count()).toBe(0); // not followed yet

    await page.goto(`/profile/${author.username}`);
    await clickHydrated(page.getByRole('button', { name: 'Follow', exact: true }));
    await toast(page, TEXTS.following(author.username)).waitFor();
    await page.getByRole('button', { name: 'Unfollow' }).waitFor();

    await page.goto('/home');
    const card = page.getByRole('article').filter({ hasText: 'Fog over the harbour' });
    await card.waitFor();

    const like = card.getByRole('button', { name: /^Like post/ });
    const dislike = card.getByRole('button', { name: /^Dislike post/ });
    await like.click();
    await toast(page, TEXTS.liked).waitFor();
    await expect.poll(() => like.getAttribute('aria-label')).toMatch(/1 like$/);
    expect(await like.getAttribute('aria-pressed')).toBe('true');
    await dislike.click();
    await toast(page, TEXTS.disliked).waitFor();
    await expect.poll(() => dislike.getAttribute('aria-label')).toMatch(/1 dislike$/);
    await expect.poll(() => like.getAttribute('aria-label')).toMatch(/0 likes$/);
    await dislike.click(); // toggles off
    await expect.poll(() => dislike.getAttribute('aria-label')).toMatch(/0 dislikes$/);

    await card.getByRole('link', { name: /comments?, open post/ }).click();
    await page.waitForURL(`**/post/${post._id}**`);
    await page.getByLabel('Write a comment').fill('Lovely light');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await toast(page, TEXTS.commentAdded).waitFor();
    const comment = page.getByRole('listitem').filter({ hasText: 'Lovely light' });
    await comment.waitFor();
    await comment.getByRole('button', { name: /^Like comment/ }).click();
    await toast(page, TEXTS.likedComment).waitFor();
    // The post's earlier "Disliked" toast reads the same: wait for this call's own answer first.
    const commentDisliked = page.waitForResponse((r) => r.url().endsWith('/comments/dislike'));
    await comment.getByRole('button', { name: /^Dislike comment/ }).click();
    expect((await commentDisliked).status()).toBe(200);
    await toast(page, TEXTS.dislikedComment).waitFor();
    await expect
      .poll(() => comment.getByRole('button', { name: /^Dislike comment/ }).getAttribute('aria-pressed'))
      .toBe('true');

    await page.goto(`/profile/${author.username}`);
    await clickHydrated(page.getByRole('button', { name: 'Unfollow' }));
    await toast(page, TEXTS.unfollowed(author.username)).waitFor();
    await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
  });
});

describe('tag search', () => {
  test('two tags, the count wording, Remove all tags, and Search shows the matching posts', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInViaApi(page, account);
    await createPostViaApi(page, { message: 'Alpine lake at dawn', tags: ['lake'] });
    await createPostViaApi(page, { message: 'Summit in the clouds', tags: ['summit'] });
    await createPostViaApi(page, { message: 'Not about mountains', tags: ['city'] });
    await page.goto('/home');
    const searchForm = page.getByRole('search', { name: 'Search posts by tags' });
    const search = searchForm.getByLabel('Add a tag to search');
    await waitHydrated(search);
    await search.fill('lake');
    await search.press('Enter');
    await page.getByText('1 tag', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Remove all tags' }).count()).toBe(0);
    await search.fill('summit');
    await search.press('Enter');
    await page.getByText('2 tags', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Remove all tags' }).click();
    await page.getByText('2 tags', { exact: true }).waitFor({ state: 'detached' });

    for (const tag of ['lake', 'summit']) {
      await search.fill(tag);
      await search.press('Enter');
    }
    await searchForm.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/tagged/lake,summit');
    await page.getByText('Alpine lake at dawn').waitFor();
    await page.getByText('Summit in the clouds').waitFor();
    expect(await page.getByText('Not about mountains').count()).toBe(0);
  });
});

describe('a post with more comments than a page', () => {
  test('shows the 12 newest and loads the older ones, server-rendered and reached inside the app, from one read of the post', async ({
    openPage,
  }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInViaApi(page, account);
    const post = await createPostViaApi(page, { message: 'A long thread', tags: ['thread'] });
    for (let i = 1; i <= 14; i += 1) {
      const res = await page.request.post(`/api/posts/${post._id}/comments`, {
        data: { message: `Reply number ${i}` },
      });
      expect(res.status()).toBe(201);
    }
    const replies = page.getByText(/^Reply number \d+$/);
    const older = page.getByRole('button', { name: 'Show older comments' });
    const commentReads: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/api/posts/${post._id}/comments` && request.method() === 'GET')
        commentReads.push(url.search);
    });

    const showsAllAfterLoadingOlder = async () => {
      await page.getByText('Reply number 14', { exact: true }).waitFor();
      await expect.poll(() => replies.count()).toBe(12);
      expect(await page.getByText('Reply number 2', { exact: true }).count()).toBe(0);
      await older.click();
      await page.getByText('Reply number 1', { exact: true }).waitFor();
      await expect.poll(() => replies.count()).toBe(14);
      await older.waitFor({ state: 'detached' });
    };

    await page.goto(`/post/${post._id}`);
    await showsAllAfterLoadingOlder();

    await page.goto('/home');
    await page
      .getByRole('article')
      .filter({ hasText: 'A long thread' })
      .getByRole('link', { name: /comments?, open post/ })
      .click();
    await page.waitForURL(`**/post/${post._id}**`);
    await showsAllAfterLoadingOlder();
    // The comments list was only ever read for its older page, never for the first one again.
    expect(commentReads).toHaveLength(2);
    for (const search of commentReads) expect(new URLSearchParams(search).get('cursor')).toBeTruthy();
  });
});
