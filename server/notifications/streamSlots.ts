/**
 * The caps every long-lived stream of this process shares, whatever its kind (the notification
 * streams, the client API's streaming): `SSE_STREAMS_MAX` in all and `SSE_STREAMS_PER_IP` per
 * client address. Each kind keeps its own per-user cap; a slot is taken on open, given back on close.
 */
export interface StreamSlots {
  /** Why one more stream from that address is refused (null: it may open). */
  refusal(address: string): 'address' | 'process' | null;
  take(address: string): void;
  give(address: string): void;
  /** Streams open in this process, of every kind. */
  readonly size: number;
}

export function streamSlots({ max, perAddress }: { max: number; perAddress: number }): StreamSlots {
  const byAddress = new Map<string, number>();
  let count = 0;
  return {
    refusal(address) {
      if ((byAddress.get(address) ?? 0) >= perAddress) return 'address';
      if (count >= max) return 'process';
      return null;
    },
    take(address) {
      count += 1;
      byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
    },
    give(address) {
      count -= 1;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    },
    get size() {
      return count;
    },
  };
}
