/**
 * The one way a write tells the rest of the app what it changed: `publish` after the commit, and
 * every listener on every instance hears it (this one's at once and synchronously, the others
 * through the bus). Listeners each keep their own copy of the data up to date; the services know
 * none of them.
 */
import type { Bus } from '../instance/bus';
import { type DomainEvent, asDomainEvent } from './events';

/** The bus channel every event travels on. */
const EVENTS_CHANNEL = 'events';

export interface DomainEvents {
  /** Call once the change is committed; never inside its transaction. */
  publish(event: DomainEvent): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: (event: DomainEvent) => void): () => void;
  /**
   * Hears only the events this process publishes, after every bus listener: for work that must be
   * done once per change whatever the number of instances (federation's deliveries).
   */
  subscribeOwn(listener: (event: DomainEvent) => void): () => void;
}

export type PublishEvent = DomainEvents['publish'];

export function domainEvents(bus: Pick<Bus, 'publish' | 'subscribe'>): DomainEvents {
  const own = new Set<(event: DomainEvent) => void>();
  return {
    publish: (event) => {
      bus.publish(EVENTS_CHANNEL, event);
      for (const listener of own) {
        try {
          listener(event);
        } catch {
          // The change is committed; a listener's own failure is its to report, not the writer's.
        }
      }
    },
    subscribeOwn: (listener) => {
      own.add(listener);
      return () => own.delete(listener);
    },
    subscribe: (listener) =>
      bus.subscribe(EVENTS_CHANNEL, (raw) => {
        const event = asDomainEvent(raw);
        if (event) listener(event);
      }),
  };
}
