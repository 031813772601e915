import { sessionCache } from '../../server/auth/sessionCache';
import type { AuthUser } from '../../server/domain/types';

const ann: AuthUser = { id: 'u1', username: 'ann', role: 'member', sessionId: 's1' };
const annPhone: AuthUser = { ...ann, sessionId: 's2' };
const bob: AuthUser = { id: 'u2', username: 'bob', role: 'member', sessionId: 's3' };
const FAR = Number.MAX_SAFE_INTEGER;

describe('session cache', () => {
  it('finds only the exact token, until its time is up (in the last quarter of ttlMs) or the token expires', () => {
    const cache = sessionCache({ ttlMs: 1000 });
    cache.set('token-a', ann, FAR, 0);
    cache.set('token-b', bob, 500, 0);
    expect(cache.get('token-a', 749)).toBe(ann);
    expect(cache.get('token-a ', 749)).toBeUndefined();
    expect(cache.get('token-a', 1000)).toBeUndefined();
    expect(cache.get('token-b', 499)).toBe(bob);
    expect(cache.get('token-b', 500)).toBeUndefined();
  });

  it('forgets a revoked session, or every session of a user but the one kept', () => {
    const cache = sessionCache({ ttlMs: 1000 });
    cache.set('a', ann, FAR, 0);
    cache.set('b', annPhone, FAR, 0);
    cache.set('c', bob, FAR, 0);
    cache.forgetSession('s1');
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBe(annPhone);
    cache.set('a', ann, FAR, 0);
    cache.forgetUser('u1', 's1');
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([ann, undefined, bob]);
    cache.forgetUser('u1');
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('keeps at most `max` tokens, dropping the oldest, and nothing when the time is 0', () => {
    const cache = sessionCache({ ttlMs: 1000, max: 2 });
    cache.set('a', ann, FAR, 0);
    cache.set('b', annPhone, FAR, 0);
    cache.set('c', bob, FAR, 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([undefined, annPhone, bob]);
    const off = sessionCache({ ttlMs: 0 });
    off.set('a', ann, FAR, 0);
    expect(off.get('a', 0)).toBeUndefined();
  });

  it('keeps nothing looked up while something was forgotten (the lookup may predate a revocation)', () => {
    const cache = sessionCache({ ttlMs: 1000 });
    const seen = cache.forgets();
    cache.forgetSession('s9'); // arrives from another instance while this lookup runs
    cache.set('a', ann, FAR, 0, seen);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.set('a', ann, FAR, 0, cache.forgets());
    expect(cache.get('a', 1)).toBe(ann);
  });
});
