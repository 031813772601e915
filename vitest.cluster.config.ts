import { defineConfig } from 'vitest/config';

// `npm run test:cluster`: the cluster of `npm run cluster` (PostgreSQL, Redis, S3, nginx), over real HTTP.
export default defineConfig({
  test: {
    name: 'cluster',
    include: ['tests/cluster/**/*.test.ts'],
    environment: 'node',
    globals: true,
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
