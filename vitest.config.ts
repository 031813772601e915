import { defineConfig } from 'vitest/config';

// The server suite runs on SQLite and, when TEST_DATABASE_URL is set, again on PostgreSQL.
const serverProject = (name: string, database: 'sqlite' | 'postgres') => ({
  test: {
    name,
    include: ['tests/server/**/*.test.ts'],
    environment: 'node',
    globals: true,
    env: { TEST_DB: database },
    // Caps, not measurements: on a busy machine (load 12 on 2 cores) the image tests take minutes.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});

export default defineConfig({
  test: {
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
        },
      },
    ],
  },
});
