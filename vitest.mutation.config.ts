import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The tests StrykerJS runs against each mutant (stryker.config.json, `npm run test:mutation`): those
 * of the mutation-tested modules only, on SQLite, without Redis (the two-instance cases test the
 * bus, not the checks). MUTATION_RUN leaves out what a mutant run need not repeat (see its uses).
 */
export const MUTATION_TESTS = [
  // server/invalidation/table.ts, through the HTTP API (its line-removal tests are left out here).
  'tests/server/invalidationTable.test.ts',
  // server/safety/visibility.ts, server/domain/audience.ts, server/posts/access.ts: rows straight in the database.
  'tests/server/visibility.test.ts',
  'tests/server/audience.test.ts',
  'tests/server/postAccess.test.ts',
  // server/oauth/scopes.ts, server/mastodon/scopeGuard.ts.
  'tests/server/scopes.test.ts',
  // server/federation/signedInbox.ts, server/federation/inboxSignature.ts.
  'tests/server/federationSignedInbox.test.ts',
  'tests/server/inboxSignature.test.ts',
];

export default defineConfig({
  test: {
    // MUTATION_SKIP_TABLE=1 (scripts/mutation-ci.sh, when the table is not mutated this run): its
    // cases take a minute of the first run, which covers nothing else.
    include: process.env.MUTATION_SKIP_TABLE
      ? MUTATION_TESTS.filter((file) => !file.endsWith('invalidationTable.test.ts'))
      : MUTATION_TESTS,
    exclude: [...configDefaults.exclude],
    environment: 'node',
    globals: true,
    env: { TEST_DB: 'sqlite', TEST_DATABASE_URL: '', TEST_REDIS_URL: '', MUTATION_RUN: '1' },
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
