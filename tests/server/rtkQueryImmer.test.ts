import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as sharedImmer from 'immer';
import type { NextConfig } from 'next';

// RTK Query's own immer copy (next.config.js, scripts/turbopack/rtkQueryImmer.cjs): the loader's
// rewrite, and drafts of the shared copy handled by the other copy's patch helpers.
const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
// The config is plain JavaScript (no types to import): read as what it is, a NextConfig.
const nextConfig = ((await import(path.join(root, 'next.config.js'))) as { default: NextConfig }).default;
const rtkQueryImmer = require('../../scripts/turbopack/rtkQueryImmer.cjs') as (this: object, source: string) => string;
const rule = nextConfig.turbopack!.rules!['*.mjs'] as { condition: { all: [string, { path: RegExp }] } };
const aliasedFile = path.join(root, nextConfig.turbopack!.resolveAlias!['immer-with-patches'] as string);
const queryDist = path.join(root, 'node_modules/@reduxjs/toolkit/dist/query');

describe("RTK Query's own immer module", () => {
  it.each(['rtk-query.modern.mjs', 'rtk-query.browser.mjs'])('the loader points %s at the aliased copy', (file) => {
    const full = path.join(queryDist, file);
    expect(rule.condition.all[1].path.test(full)).toBe(true);
    const rewritten = rtkQueryImmer.call({ resourcePath: full }, readFileSync(full, 'utf8'));
    expect(rewritten).toMatch(/from\s*"immer-with-patches"/);
    expect(rewritten).not.toMatch(/from\s*["']immer["']/);
  });

  it('the rule leaves the toolkit itself and RTK Query for React alone', () => {
    for (const file of ['../redux-toolkit.modern.mjs', 'react/rtk-query-react.modern.mjs'])
      expect(rule.condition.all[1].path.test(path.join(queryDist, file))).toBe(false);
  });

  it('fails the build when RTK Query no longer imports immer as it did', () => {
    expect(() => rtkQueryImmer.call({ resourcePath: 'x.mjs' }, 'export const a = 1;')).toThrow(/no import of immer/);
  });

  it("patches made by the second copy apply to the shared copy's drafts", async () => {
    const queryImmer = (await import(aliasedFile)) as typeof sharedImmer;
    queryImmer.enablePatches();
    // Two modules: the shared one never gets the patches plugin.
    expect(() => sharedImmer.applyPatches({}, [])).toThrow();

    const data = sharedImmer.produce({ pages: [[{ id: 1, followed: false }]] }, () => {});
    // As `updateQueryData` does: patches made outside the store ...
    const [, patches] = queryImmer.produceWithPatches(data, (draft) => {
      draft.pages[0][0].followed = true;
    });
    // ... applied in a slice's reducer, on a draft of the shared copy.
    const state = sharedImmer.produce({ data }, (draft) => {
      expect(queryImmer.isDraft(draft.data)).toBe(true);
      expect(queryImmer.original(draft.data)).toBe(data);
      draft.data = queryImmer.applyPatches(draft.data, patches);
      expect(queryImmer.current(draft.data).pages[0][0].followed).toBe(true);
    });
    expect(state.data.pages[0][0]).toEqual({ id: 1, followed: true });
    expect(data.pages[0][0].followed).toBe(false);
    expect(Object.isFrozen(state.data.pages[0][0])).toBe(true);
  });
});
