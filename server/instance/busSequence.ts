/**
 * What makes the bus gap-free (issue 72): every message an instance publishes carries its publisher
 * id and the next number of that publisher's sequence, and each publisher's heartbeat says the last
 * number it sent. A receiver that finds a number missing (a gap), hears of a publisher mid-way (it
 * may have missed the start), or stops hearing one past the silence bound cannot know what it
 * missed: it says so (`onMissed`), and the caller forgets every cache. A number already seen (a
 * duplicate, or a message that arrives after a later one) is not delivered: what it tells is older
 * than the forget its gap caused. So the caches never rest on their time-to-live for correctness.
 */

export type MissedReason =
  /** A publisher's number skipped some: those messages were lost (or come later, out of order). */
  | 'gap'
  /** A publisher first heard past its first number: what it said before is unknown. */
  | 'joined'
  /** A publisher silent past the bound: it may have published what never arrived. */
  | 'silence'
  /** The connection to the bus came back: messages may have been missed meanwhile. */
  | 'rejoined'
  /** A reader's own write (the version their client carries) had not arrived within the bound. */
  | 'behind'
  /** This instance hears nothing, not even its own heartbeats: every request starts over. */
  | 'deaf';

export const MISSED_REASONS: readonly MissedReason[] = ['gap', 'joined', 'silence', 'rejoined', 'behind', 'deaf'];

interface Publisher {
  /** The highest number accounted for: delivered, or covered by a forget. */
  last: number;
  heardAt: number;
  /** Silent past the bound, or said goodbye: no longer watched for silence. */
  gone: boolean;
}

export interface SequenceTracker {
  /** A message numbered `seq` from `from`: whether to deliver it (false for a number seen before). */
  message(from: string, seq: number): boolean;
  /** `from` is alive and has sent up to `seq`; `last`: it is closing (its goodbye). */
  beat(from: string, seq: number, last?: boolean): void;
  /** Forgets publishers silent past the bound (a forget for them); called on a timer. */
  checkSilence(): void;
  /** The highest number of `from` accounted for (delivered or covered by a forget); 0 when never heard. */
  heardUpTo(from: string): number;
  /** Calls `listener` whenever a publisher's `heardUpTo` rises. */
  onProgress(listener: () => void): () => void;
}

/** Publishers gone for this long are dropped altogether (a restarted instance has a new id). */
const DROP_GONE_MS = 60 * 60_000;

export function sequenceTracker(options: {
  silenceMs: number;
  onMissed: (reason: MissedReason) => void;
  now?: () => number;
}): SequenceTracker {
  const now = options.now ?? Date.now;
  const publishers = new Map<string, Publisher>();
  const progress = new Set<() => void>();
  const moved = () => {
    for (const listener of progress) listener();
  };

  /** The publisher heard now, with `seq` as the highest number it has sent; true when that is new. */
  function heard(from: string, seq: number, isMessage: boolean): boolean {
    const at = now();
    const known = publishers.get(from);
    if (!known) {
      // Its first message is number 1, and a new publisher's first beat says 0: anything else means
      // it spoke before this instance listened.
      if (seq > (isMessage ? 1 : 0)) options.onMissed('joined');
      publishers.set(from, { last: seq, heardAt: at, gone: false });
      if (seq > 0) moved();
      return true;
    }
    known.heardAt = at;
    known.gone = false;
    if (seq <= known.last) return false;
    // A message is the next number; a beat may only confirm what was delivered.
    if (seq > known.last + (isMessage ? 1 : 0)) options.onMissed('gap');
    known.last = seq;
    moved();
    return true;
  }

  return {
    message: (from, seq) => heard(from, seq, true),
    beat(from, seq, last = false) {
      heard(from, seq, false);
      if (last) publishers.get(from)!.gone = true;
    },
    checkSilence() {
      const at = now();
      for (const [from, publisher] of publishers) {
        if (publisher.gone) {
          if (at - publisher.heardAt > DROP_GONE_MS) publishers.delete(from);
        } else if (at - publisher.heardAt > options.silenceMs) {
          publisher.gone = true;
          options.onMissed('silence');
        }
      }
    },
    heardUpTo: (from) => publishers.get(from)?.last ?? 0,
    onProgress(listener) {
      progress.add(listener);
      return () => progress.delete(listener);
    },
  };
}
