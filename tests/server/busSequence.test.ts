/**
 * The bus's numbering (issue 72): a gap makes the caches start over, a duplicate or a late message
 * is not delivered, a publisher silent past the bound makes them start over, and a reader's
 * position is caught up once delivered or covered by a forget. A clock of the test's own.
 */
import { type MissedReason, sequenceTracker } from '../../server/instance/busSequence';

function tracked(silenceMs = 100) {
  let now = 0;
  const missed: MissedReason[] = [];
  const tracker = sequenceTracker({ silenceMs, onMissed: (reason) => missed.push(reason), now: () => now });
  return { tracker, missed, pass: (ms: number) => (now += ms) };
}

describe('sequenceTracker', () => {
  it('delivers a publisher’s messages in order without a forget', () => {
    const { tracker, missed } = tracked();
    expect([1, 2, 3].map((seq) => tracker.message('a', seq))).toEqual([true, true, true]);
    tracker.beat('a', 3);
    expect(missed).toEqual([]);
    expect(tracker.heardUpTo('a')).toBe(3);
  });

  it('forgets on a gap, and delivers the message that showed it', () => {
    const { tracker, missed } = tracked();
    tracker.message('a', 1);
    expect(tracker.message('a', 3)).toBe(true);
    expect(missed).toEqual(['gap']);
    expect(tracker.heardUpTo('a')).toBe(3);
  });

  it('ignores a duplicate, and a message arriving after a later one (its gap forgot already)', () => {
    const { tracker, missed } = tracked();
    tracker.message('a', 1);
    tracker.message('a', 2);
    expect(tracker.message('a', 2)).toBe(false); // duplicate
    expect(tracker.message('a', 4)).toBe(true); // 3 late: a gap
    expect(tracker.message('a', 3)).toBe(false); // late: older than the forget
    expect(missed).toEqual(['gap']);
  });

  it('forgets when a heartbeat says more was sent than arrived, not when it confirms it', () => {
    const { tracker, missed } = tracked();
    tracker.message('a', 1);
    tracker.beat('a', 1);
    expect(missed).toEqual([]);
    tracker.beat('a', 2); // message 2 lost
    expect(missed).toEqual(['gap']);
    expect(tracker.heardUpTo('a')).toBe(2);
    tracker.beat('a', 1); // an old heartbeat, late
    expect(missed).toEqual(['gap']);
  });

  it('forgets for a publisher first heard mid-way, not for one heard from its start', () => {
    const { tracker, missed } = tracked();
    tracker.beat('new', 0);
    tracker.message('fresh', 1);
    expect(missed).toEqual([]);
    tracker.message('older', 7);
    tracker.beat('older-still', 3);
    expect(missed).toEqual(['joined', 'joined']);
  });

  it('forgets once for a publisher silent past the bound, and not for one that keeps beating', () => {
    const { tracker, missed, pass } = tracked(100);
    tracker.beat('quiet', 0);
    tracker.beat('alive', 0);
    for (let i = 0; i < 5; i++) {
      pass(60);
      tracker.beat('alive', 0);
      tracker.checkSilence();
    }
    expect(missed).toEqual(['silence']);
    tracker.checkSilence();
    expect(missed).toEqual(['silence']); // once
    // Heard again: watched again, and a number it skipped meanwhile is a gap.
    tracker.message('quiet', 2);
    expect(missed).toEqual(['silence', 'gap']);
  });

  it('does not forget for a publisher that said goodbye with everything delivered', () => {
    const { tracker, missed, pass } = tracked(100);
    tracker.message('a', 1);
    tracker.beat('a', 1, true);
    pass(1_000);
    tracker.checkSilence();
    expect(missed).toEqual([]);
  });

  it('tells its listeners when a publisher’s position rises', () => {
    const { tracker } = tracked();
    const seen: number[] = [];
    const stop = tracker.onProgress(() => seen.push(tracker.heardUpTo('a')));
    tracker.message('a', 1);
    tracker.message('a', 1);
    tracker.beat('a', 4);
    stop();
    tracker.message('a', 5);
    expect(seen).toEqual([1, 4]);
  });
});
