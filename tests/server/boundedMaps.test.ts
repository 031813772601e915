import { setBounded, setFresh } from '../../server/cache/bounded';
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

  it('drops a few of the oldest entries past their time when setting one', () => {
    const map = new Map(['a', 'b', 'c', 'd', 'e'].map((key, i) => [key, { until: i < 4 ? 100 : 300 }]));
    setFresh(map, 'f', { until: 400 }, 10, 200);
    expect([...map.keys()]).toEqual(['c', 'd', 'e', 'f']); // two at a time
    setFresh(map, 'g', { until: 400 }, 10, 200);
    expect([...map.keys()]).toEqual(['e', 'f', 'g']); // e has time left: the walk stops there
    setFresh(map, 'h', { until: 400 }, 10, 50); // nothing past its time at 50
    expect([...map.keys()]).toEqual(['e', 'f', 'g', 'h']);
  });
});
