import { setBounded } from '../../server/cache/bounded';
import { cacheCounts } from '../../server/cache/counts';

describe('bounded maps', () => {
  it('pushes out the oldest entry written once full, and counts it', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    const counts = cacheCounts();
    setBounded(map, 'b', 3, 2, counts); // already there: nothing goes
    setBounded(map, 'c', 4, 2, counts);
    expect([...map]).toEqual([
      ['b', 3],
      ['c', 4],
    ]);
    expect(counts.evictions).toBe(1);
  });
});
