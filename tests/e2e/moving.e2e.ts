/**
 * Issue 76, item 2, in Chromium: Settings' "Move in and out" imports a follows list in Mastodon's
 * format through its form (a person here followed, an unknown one listed with the reason), refuses
 * a file of another kind with the server's message, and exports the follows as a CSV download.
 */
import { readFile } from 'node:fs/promises';
import { axeViolations } from './axe';
import { clickHydrated, expect, test } from './browser';
import { signInViaApi } from './content';
import { createAccount } from './users';

describe('moving in and out', () => {
  test('imports a follows CSV through the settings form, then exports it', async ({ openPage }) => {
    const page = await openPage();
    const friend = await createAccount(page);
    const me = await createAccount(page);
    await signInViaApi(page, me);
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Move in and out' });
    await section.waitFor();

    // A file of another list: the server's message, nothing imported.
    await section.getByLabel('CSV file', { exact: true }).setInputFiles({
      name: 'blocked_domains.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('#domain\nexample.com\n'),
    });
    await clickHydrated(section.getByRole('button', { name: 'Import', exact: true }));
    await section.getByRole('alert').filter({ hasText: 'This file is a Mastodon list of blocked domains' }).waitFor();

    await section.getByLabel('List', { exact: true }).selectOption('follows');
    await section.getByLabel(/^Merge/).check();
    await section.getByLabel('CSV file', { exact: true }).setInputFiles({
      name: 'following_accounts.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `Account address,Show boosts,Notify on new posts,Languages\n${friend.username},true,false,\nnobody_${me.username},true,false,\n`,
      ),
    });
    await section.getByRole('button', { name: 'Import', exact: true }).click();
    const progress = section.getByTestId('list-import-progress');
    await progress.getByText('Import finished', { exact: false }).waitFor();
    await progress.getByText('1 of 2 done, 1 failed, 0 waiting').waitFor();
    await progress.getByText(`Line 2, nobody_${me.username}: User not found`).waitFor();

    // The section, its form and the progress pass axe's checks.
    expect(await axeViolations(page)).toEqual([]);

    const profile = await page.request.get(`/api/users/${friend.username}`);
    expect((await profile.json()).user.followedByMe).toBe(true);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Export follows' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('following_accounts.csv');
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.split('\n')[0]).toBe('Account address,Show boosts,Notify on new posts,Languages');
    expect(text).toContain(`${friend.username}@`);
  });
});
