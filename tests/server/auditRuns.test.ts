import { medianDecided } from '../../scripts/auditRuns';

/** The median performance of scores, as the audit picks its median run (the lower of two middles). */
const median = (scores: number[]) => [...scores].sort((a, b) => a - b)[Math.floor((scores.length - 1) / 2)];

describe('medianDecided', () => {
  it('stops seven runs once four cleared the budget, or four missed it', () => {
    expect(medianDecided([99, 97, 98], 7, 95)).toBe(false);
    expect(medianDecided([99, 97, 98, 96], 7, 95)).toBe(true);
    expect(medianDecided([90, 99, 91, 97, 94], 7, 95)).toBe(false);
    expect(medianDecided([90, 99, 91, 97, 94, 93], 7, 95)).toBe(true);
    expect(medianDecided([90, 99, 91, 97, 94, 96], 7, 95)).toBe(false);
  });

  it('agrees with the median of every run, whatever the runs left would have scored', () => {
    // Every sequence of seven scores, each clearing (96) or missing (90) the budget.
    for (let bits = 0; bits < 2 ** 7; bits += 1) {
      const all = Array.from({ length: 7 }, (_, i) => (bits & (1 << i) ? 96 : 90));
      let made = 0;
      while (made < all.length && !medianDecided(all.slice(0, made), 7, 95)) made += 1;
      expect(median(all.slice(0, made)) >= 95).toBe(median(all) >= 95);
    }
  });
});
