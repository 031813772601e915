/**
 * `Idempotency-Key` on status creation: an app that retries a post (a timeout, a flaky network)
 * with the same key gets the first answer back instead of a second post, for an hour, as Mastodon
 * does. Kept in this process: behind a balancer a retry that reaches another instance is not caught.
 */
import { setBounded } from '../cache/bounded';

const KEEP_MS = 60 * 60 * 1000;
const MAX_KEYS = 10_000;

export function idempotentCalls() {
  const calls = new Map<string, { until: number; answer: Promise<unknown> }>();
  return function once<T>(userId: string, key: string | undefined, call: () => Promise<T>): Promise<T> {
    if (!key) return call();
    const id = `${userId}\n${key.slice(0, 200)}`;
    const now = Date.now();
    const kept = calls.get(id);
    if (kept && kept.until > now) return kept.answer as Promise<T>;
    const answer = call();
    setBounded(calls, id, { until: now + KEEP_MS, answer }, MAX_KEYS);
    // A refusal is not remembered: the app may fix the request and send it again with the same key.
    answer.catch(() => calls.delete(id));
    return answer;
  };
}
