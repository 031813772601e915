import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take longest (each sweeps every page, or starts servers of its own), longest first:
 * they start first, so the two lanes end together instead of one file running on alone at the end.
 */
const LONGEST = ['a11y', 'federation', 'pageLoad', 'visual', 'notifications', 'security'];
const rank = (spec: TestSpecification) => {
  const at = LONGEST.indexOf(path.basename(spec.moduleId, '.e2e.ts'));
  return at === -1 ? LONGEST.length : at;
};

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// The real-browser suite: Debian's Chromium driven by playwright-core against the production build.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    globals: true,
    globalSetup: ['tests/e2e/globalSetup.ts'],
    // One server for all, a browser per file, two files at a time (the longest first).
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    // A polled condition waits for the page, not for a clock: the default second is a deadline a
    // loaded machine misses (a lazy section's list after a reload, in the full suite beside CI's load).
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 180_000,
  },
});
