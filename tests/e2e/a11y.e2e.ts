import { axeViolations } from './axe';
import { expect, MOBILE, test } from './browser';
import { signInViaApi } from './content';
import { type World, buildWorld, openAppPage, themes, useTheme } from './pages';

let world: World;

describe('accessibility (axe-core, WCAG 2.2 A/AA)', () => {
  test('setup: content to look at', async ({ openPage }) => {
    world = await buildWorld(await openPage());
  });

  for (const theme of themes) {
    for (const [width, options] of [
      ['1280px', {}],
      ['375px', MOBILE],
    ] as const) {
      // Fifteen pages, each with axe: 40–57 s on a loaded machine, so three minutes rather than one.
      test(`every page, ${theme}, ${width}: no violations`, { timeout: 180_000 }, async ({ openPage }) => {
        const page = await openPage(options);
        await useTheme(page, theme);
        const found: string[] = [];
        for (const { name, path, signedIn } of world.pages) {
          if (signedIn) await signInViaApi(page, world.author);
          else await page.request.post('/api/auth/logout');
          await openAppPage(page, path);
          for (const violation of await axeViolations(page)) found.push(`${name}: ${violation}`);
        }
        expect(found).toEqual([]);
      });
    }
  }
});
