/** The fair limiter behind the image queue: slots go round the keys, not first come first served. */
import { type FairLimiter, fairLimiter, limiter } from '../../server/domain/limiter';

/**
 * Acquires for each key (in this order, all waiting at once), then frees each slot as soon as it is
 * given: the order the slots were given in.
 */
async function startOrder(limiter: FairLimiter, keys: string[]): Promise<string[]> {
  const started: string[] = [];
  await Promise.all(
    keys.map(async (key, i) => {
      const release = await limiter.acquire(key);
      started.push(`${key}${i}`);
      // Let every other waiter's turn be decided by the queue, not by who runs first.
      await Promise.resolve();
      release();
    }),
  );
  return started;
}

describe('fairLimiter', () => {
  it('gives a freed slot to the key that started least recently, then alternates', async () => {
    expect(await startOrder(fairLimiter(1), ['a', 'a', 'a', 'a', 'b', 'c', 'b'])).toEqual([
      'a0',
      'b4',
      'c5',
      'a1',
      'b6',
      'a2',
      'a3',
    ]);
  });

  it('with several slots, still takes turns between keys', async () => {
    expect(await startOrder(fairLimiter(2), ['a', 'a', 'a', 'a', 'b', 'b'])).toEqual([
      'a0',
      'a1',
      'b4',
      'a2',
      'b5',
      'a3',
    ]);
  });

  it('counts what each key holds or waits for, and forgets a key with nothing pending', async () => {
    const slots = fairLimiter(1);
    const first = await slots.acquire('a');
    const waiting = [slots.acquire('a'), slots.acquire('b')];
    expect([slots.pending('a'), slots.pending('b'), slots.pending('c')]).toEqual([2, 1, 0]);
    first();
    first(); // a second call frees nothing more
    expect(slots.pending('a')).toBe(1);
    (await waiting[1])();
    (await waiting[0])();
    expect([slots.pending('a'), slots.pending('b')]).toEqual([0, 0]);
  });
});

describe('limiter', () => {
  it('counts the tasks waiting for a slot; a freed slot goes to the first of them', async () => {
    const turns = limiter(1);
    const first = await turns.acquire();
    const second = turns.acquire();
    expect(turns.waiting()).toBe(1);
    first();
    (await second)();
    expect(turns.waiting()).toBe(0);
  });
});
