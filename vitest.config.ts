import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Files that open no database (image work in child processes): once, in the SQLite project.
const DATABASE_FREE = ['tests/server/imageMemory.test.ts', 'tests/server/pipeline.test.ts'];

// The server suite runs on SQLite and, when TEST_DATABASE_URL is set, again on PostgreSQL.
const serverProject = (name: string, database: 'sqlite' | 'postgres') => ({
  test: {
    name,
    include: ['tests/server/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(database === 'postgres' ? DATABASE_FREE : [])],
    environment: 'node',
    globals: true,
    env: { TEST_DB: database },
    setupFiles: ['tests/server/redisPerWorker.ts'],
    // Caps, not measurements: on a busy machine (load 12 on 2 cores) the image tests take minutes.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});

export default defineConfig({
  test: {
    // Files side by side, two at least: much of a file's time is spent waiting (on PostgreSQL, on a
    // child process, on image work in libuv's pool), and vitest's default (cores − 1) is one on CI's
    // two cores. At most four: each file opens its own PostgreSQL pools (100 connections in all).
    maxWorkers: Math.min(4, Math.max(2, availableParallelism())),
    projects: [
      serverProject('server-sqlite', 'sqlite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-postgres', 'postgres')] : []),
      {
        test: {
          name: 'client',
          include: ['tests/client/**/*.test.{ts,tsx}', 'tests/lib/**/*.test.ts'],
          environment: 'jsdom',
          globals: true,
          setupFiles: ['tests/client/setup.ts'],
          testTimeout: 60_000,
          // As in the build (next.config.js): use-intl formats the precompiled messages with its
          // format-only runtime; inlined so the alias reaches use-intl's own import.
          server: { deps: { inline: ['use-intl'] } },
        },
        resolve: {
          alias: [{ find: /^use-intl\/format-message$/, replacement: 'use-intl/format-message/format-only' }],
        },
      },
    ],
  },
});
