/**
 * Every feature has the same sub-folders (issue 69, item 7; docs/frontend.md, "Where things live"):
 * `index.ts` beside `components/` (`.tsx`), `state/` (slices, thunks, API calls, RTK Query
 * endpoints), `hooks/` (`use….ts`) and `lib/` (plain helpers). Read from disk: a new feature or
 * file is checked without editing this test.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES = path.resolve(import.meta.dirname, '../../../features');

/** What each sub-folder may hold, at any depth. */
const RULES: Record<string, RegExp> = {
  components: /^[A-Z]\w*\.tsx$/,
  state: /^[a-z]\w*\.ts$/,
  hooks: /^use[A-Z]\w*\.tsx?$/,
  lib: /^[a-z]\w*\.ts$/,
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/** The paths (relative to features/) that break the convention. */
export function strayPaths(features = FEATURES): string[] {
  const stray: string[] = [];
  for (const feature of readdirSync(features)) {
    const dir = path.join(features, feature);
    if (!statSync(dir).isDirectory()) {
      stray.push(feature);
      continue;
    }
    const entries = readdirSync(dir, { withFileTypes: true });
    if (!entries.some((entry) => entry.name === 'index.ts' && entry.isFile()))
      stray.push(`${feature}/index.ts (missing)`);
    for (const entry of entries) {
      if (entry.name === 'index.ts' && entry.isFile()) continue;
      const rule = RULES[entry.name];
      if (!rule || !entry.isDirectory()) {
        stray.push(`${feature}/${entry.name}`);
        continue;
      }
      for (const file of filesUnder(path.join(dir, entry.name)))
        if (!rule.test(path.basename(file))) stray.push(path.relative(features, file));
    }
  }
  return stray;
}

describe('features/*', () => {
  it('holds only index.ts, components/, state/, hooks/ and lib/, each with its kind of file', () => {
    expect(strayPaths()).toEqual([]);
  });

  it('finds a file left beside index.ts, a folder of another name and a misplaced kind of file', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(path.join(tmpdir(), 'features-'));
    mkdirSync(path.join(root, 'good/components'), { recursive: true });
    writeFileSync(path.join(root, 'good/index.ts'), '');
    writeFileSync(path.join(root, 'good/components/Card.tsx'), '');
    mkdirSync(path.join(root, 'bad/utils'), { recursive: true });
    mkdirSync(path.join(root, 'bad/state'), { recursive: true });
    writeFileSync(path.join(root, 'bad/index.ts'), '');
    writeFileSync(path.join(root, 'bad/Card.tsx'), '');
    writeFileSync(path.join(root, 'bad/state/Panel.tsx'), '');
    mkdirSync(path.join(root, 'bare'));
    expect(strayPaths(root).sort()).toEqual(
      ['bad/Card.tsx', 'bad/state/Panel.tsx', 'bad/utils', 'bare/index.ts (missing)'].sort(),
    );
  });
});
