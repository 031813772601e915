/** Every page of the app, for the accessibility sweep and the screenshots. */
import type { Page } from 'playwright-core';
import { THEMES, type ThemeName } from '../../lib/limits';
import { createPostViaApi, signInViaApi, uploadViaApi } from './content';
import { type Account, createAccount, newAccount } from './users';

export interface AppPage {
  name: string;
  path: string;
  signedIn: boolean;
}

export interface World {
  author: Account;
  postId: string;
  pages: AppPage[];
}

/** An author with an avatar, a banner, a description, posts and a comment; the pages that show them. */
export async function buildWorld(page: Page): Promise<World> {
  const author = await createAccount(page, newAccount('author'));
  await signInViaApi(page, author);
  const avatar = await uploadViaApi(page, 'avatar', 20);
  const banner = await uploadViaApi(page, 'banner', 260);
  await page.request.patch('/api/users/updateProfile', {
    data: { avatar: avatar.secure_url, banner: banner.secure_url, description: 'Landscapes, coffee and long walks.' },
  });
  let postId = '';
  for (const [i, tags] of [['sunset', 'sea'], ['hiking'], ['sea', 'boats']].entries()) {
    postId = (await createPostViaApi(page, { message: `Evening number ${i + 1} by the water`, tags, hue: 30 + i * 90 }))
      ._id;
  }
  await page.request.post(`/api/posts/${postId}/comments`, { data: { message: 'What a view!' } });
  // Their saved posts (issue 73): one, so the page shows a post rather than its empty state.
  await page.request.put(`/api/posts/${postId}/save`);
  await page.request.post('/api/auth/logout');
  // Someone else follows, likes, comments and mentions: the author's notifications.
  const fan = await createAccount(page, newAccount('fan'));
  await signInViaApi(page, fan);
  await page.request.patch(`/api/users/${author.username}/follow`, { data: {} });
  await page.request.patch(`/api/posts/${postId}/like`, { data: {} });
  await page.request.post(`/api/posts/${postId}/comments`, {
    data: { message: `Golden hour again, @${author.username}! Where is this?` },
  });
  await page.request.post('/api/auth/logout');
  return {
    author,
    postId,
    pages: [
      { name: 'landing', path: '/', signedIn: false },
      { name: 'login', path: '/login', signedIn: false },
      { name: 'createAccount', path: '/createAccount', signedIn: false },
      { name: 'home', path: '/home', signedIn: true },
      { name: 'contact', path: '/contact', signedIn: true },
      { name: 'notifications', path: '/notifications', signedIn: true },
      { name: 'saved', path: '/saved', signedIn: true },
      { name: 'explore', path: '/explore', signedIn: true },
      { name: 'profile', path: `/profile/${author.username}`, signedIn: true },
      { name: 'settings', path: '/settings', signedIn: true },
      { name: 'tagged', path: '/tagged/sea,hiking', signedIn: true },
      { name: 'post', path: `/post/${postId}`, signedIn: true },
      { name: 'not-found', path: '/no-such-page', signedIn: true },
      // The pages mailed links open (a made-up token: the reset form, and the verify page's refusal).
      { name: 'resetPassword', path: '/resetPassword?token=example', signedIn: false },
      { name: 'verifyEmail', path: '/verifyEmail?token=example', signedIn: false },
    ],
  };
}

export const themes: readonly ThemeName[] = THEMES;

/** Applies a theme the way a returning visitor has it: in localStorage before the first paint. */
export async function useTheme(page: Page, theme: ThemeName): Promise<void> {
  await page.context().addInitScript((value) => window.localStorage.setItem('theme', value), theme);
}

/** Opens a page and waits until its content (not a loading state) is there. */
export async function openAppPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: 10_000 })
    .catch(() => {});
  // Images fade in over their placeholders.
  await page.waitForTimeout(400);
}
