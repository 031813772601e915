/**
 * Which instances are running, for the admin overview: every few seconds each instance checks
 * that its database answers and says so on the bus (`instance-heartbeat`); each keeps what it
 * heard. Without Redis the bus reaches this process only, so the list is this instance alone.
 */
import type { InstanceStatus } from '../../lib/types';
import type { Bus } from './bus';

const CHANNEL = 'instance-heartbeat';
export const HEARTBEAT_MS = 5_000;
/** Not heard for this long (three heartbeats missed): not healthy. */
const SILENT_MS = 3 * HEARTBEAT_MS;
/** Not heard for this long: gone (stopped, replaced), dropped from the list. */
const FORGET_MS = 60 * 60_000;

interface Heartbeat {
  id: string;
  startedAt: string;
  database: 'up' | 'down';
}

export interface Presence {
  /** Every instance heard within the hour, this one first, then by id. */
  instances(): InstanceStatus[];
  /** Resolves once this instance's first heartbeat is out (so it lists itself). */
  ready(): Promise<void>;
  start(): void;
  close(): void;
}

export function instancePresence(
  bus: Bus,
  options: { id: string; databaseAnswers: () => Promise<boolean>; now?: () => number },
): Presence {
  const now = options.now ?? Date.now;
  const startedAt = new Date(now()).toISOString();
  const heard = new Map<string, { beat: Heartbeat; at: number }>();
  let timer: NodeJS.Timeout | undefined;
  let first: Promise<void> = Promise.resolve();
  const unsubscribe = bus.subscribe(CHANNEL, (message) => {
    const beat = message as Heartbeat;
    if (typeof beat?.id === 'string') heard.set(beat.id, { beat, at: now() });
  });
  const beat = async () => {
    const database = (await options.databaseAnswers()) ? 'up' : 'down';
    bus.publish(CHANNEL, { id: options.id, startedAt, database } satisfies Heartbeat);
  };

  return {
    instances() {
      const at = now();
      const list: InstanceStatus[] = [];
      for (const [id, { beat, at: seen }] of heard) {
        if (at - seen > FORGET_MS) {
          heard.delete(id);
          continue;
        }
        list.push({
          id,
          healthy: at - seen <= SILENT_MS && beat.database === 'up',
          lastSeen: new Date(seen).toISOString(),
          startedAt: beat.startedAt,
          database: beat.database,
          self: id === options.id,
        });
      }
      return list.sort((a, b) => Number(b.self) - Number(a.self) || a.id.localeCompare(b.id));
    },
    ready: () => first,
    start() {
      first = beat().catch(() => {});
      timer = setInterval(() => void beat(), HEARTBEAT_MS);
      // The heartbeat alone must not keep a process alive.
      timer.unref();
    },
    close() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}
