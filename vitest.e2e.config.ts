import { defineConfig } from 'vitest/config';

// The real-browser suite: Debian's Chromium driven by playwright-core against the production build.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    globals: true,
    globalSetup: ['tests/e2e/globalSetup.ts'],
    // One server, one browser per file; files run one after another to keep 2 cores calm.
    fileParallelism: false,
    testTimeout: 60_000,
    // A polled condition waits for the page, not for a clock: the default second is a deadline a
    // loaded machine misses (a lazy section's list after a reload, in the full suite beside CI's load).
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 180_000,
  },
});
