import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect, MOBILE, test } from './browser';
import { signInViaApi } from './content';
import { type World, buildWorld, openAppPage, themes, useTheme } from './pages';

const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[] }[];
}

async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated by the driver, not added as an inline <script>: the page's CSP refuses those.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    return (await axe.run(document, { runOnly: { type: 'tag', values: tags } })).violations;
  }, WCAG_TAGS);
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(', ')}`,
  );
}

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
      test(`every page, ${theme}, ${width}: no violations`, async ({ openPage }) => {
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
