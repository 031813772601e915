/**
 * Node 24 has no global `Temporal`; Fedify's types name TypeScript's own (lib esnext.temporal),
 * which the polyfill's types do not match in every overload. The polyfill's objects behave the
 * same, so they are handed over under the global type here, in one place.
 */
import { Temporal } from '@js-temporal/polyfill';

export const duration = (like: Temporal.DurationLike): globalThis.Temporal.Duration =>
  Temporal.Duration.from(like) as unknown as globalThis.Temporal.Duration;

export const instantOf = (iso: string): globalThis.Temporal.Instant =>
  Temporal.Instant.from(iso) as unknown as globalThis.Temporal.Instant;
