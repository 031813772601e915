/**
 * The server suite runs files side by side (vitest.config.ts, `maxWorkers`). Each worker gets a Redis
 * database of its own, so one file's events, heartbeats and rate-limit counts never reach the
 * instances of a file running beside it (Redis has 16: 0–15).
 */
if (process.env.TEST_REDIS_URL) {
  const url = new URL(process.env.TEST_REDIS_URL);
  url.pathname = `/${Number(process.env.VITEST_POOL_ID ?? 0) % 16}`;
  process.env.TEST_REDIS_URL = url.toString();
}
