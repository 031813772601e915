import { cacheRegistry } from '../../server/cache/registry';
import { type CheckedToken, sessionCache } from '../../server/auth/sessionCache';
import type { AuthUser } from '../../server/domain/types';

const ann: AuthUser = { id: 'u1', username: 'ann', role: 'member', sessionId: 's1' };
const annPhone: AuthUser = { ...ann, sessionId: 's2' };
const bob: AuthUser = { id: 'u2', username: 'bob', role: 'member', sessionId: 's3' };
const FAR = Number.MAX_SAFE_INTEGER;

/** A session cache on a clock the test moves, and a check that counts its calls. */
function setup(options: { ttlMs: number; max?: number }) {
  const clock = { now: 0 };
  const cache = sessionCache(
    cacheRegistry(() => clock.now),
    options,
  );
  let checks = 0;
  const passes =
    (user: AuthUser, expiresAtMs = FAR) =>
    async (): Promise<CheckedToken> => {
      checks += 1;
      return { user, expiresAtMs };
    };
  return { clock, cache, passes, checks: () => checks };
}

describe('session cache', () => {
  it('knows only the exact token, until its time is up (in the last quarter of ttlMs) or the token expires', async () => {
    const { clock, cache, passes } = setup({ ttlMs: 1000 });
    await cache.check('token-a', passes(ann));
    await cache.check('token-b', passes(bob, 500));
    clock.now = 749;
    expect(cache.known('token-a')).toBe(ann);
    expect(cache.known('token-a ')).toBeUndefined();
    expect(cache.known('token-b')).toBeUndefined();
    clock.now = 499;
    expect(cache.known('token-b')).toBe(bob);
    clock.now = 1000;
    expect(cache.known('token-a')).toBeUndefined();
  });

  it('keeps nothing for a token whose check fails, and checks again next time', async () => {
    const { cache, passes, checks } = setup({ ttlMs: 1000 });
    expect(await cache.check('forged', async () => undefined)).toBeUndefined();
    expect(cache.known('forged')).toBeUndefined();
    expect(await cache.check('good', passes(ann))).toBe(ann);
    expect(await cache.check('good', passes(bob))).toBe(ann);
    expect(checks()).toBe(1);
  });

  it('forgets a revoked session, or every session of a user but the one kept', async () => {
    const { cache, passes } = setup({ ttlMs: 1000 });
    await cache.check('a', passes(ann));
    await cache.check('b', passes(annPhone));
    await cache.check('c', passes(bob));
    cache.forgetSession('s1');
    expect(cache.known('a')).toBeUndefined();
    expect(cache.known('b')).toBe(annPhone);
    await cache.check('a', passes(ann));
    cache.forgetUser('u1', 's1');
    expect([cache.known('a'), cache.known('b'), cache.known('c')]).toEqual([ann, undefined, bob]);
    cache.forgetUser('u1');
    expect(cache.known('a')).toBeUndefined();
  });

  it('keeps at most `max` tokens, dropping the oldest, and nothing when the time is 0', async () => {
    const { cache, passes } = setup({ ttlMs: 1000, max: 2 });
    await cache.check('a', passes(ann));
    await cache.check('b', passes(annPhone));
    await cache.check('c', passes(bob));
    expect([cache.known('a'), cache.known('b'), cache.known('c')]).toEqual([undefined, annPhone, bob]);
    expect(cache.counts.evictions).toBe(1);
    const off = setup({ ttlMs: 0 });
    expect(await off.cache.check('a', off.passes(ann))).toBe(ann);
    expect(off.cache.known('a')).toBeUndefined();
  });

  it('keeps nothing checked while something was forgotten (the check may predate a revocation)', async () => {
    const { cache, passes } = setup({ ttlMs: 1000 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const checking = cache.check('a', async () => {
      await held;
      return { user: ann, expiresAtMs: FAR };
    });
    cache.forgetSession('s9'); // arrives from another instance while this check runs
    release();
    expect(await checking).toBe(ann);
    expect(cache.known('a')).toBeUndefined();
    await cache.check('a', passes(ann));
    expect(cache.known('a')).toBe(ann);
  });
});
