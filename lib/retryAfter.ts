/**
 * How long to wait, in words a person reads: "in about an hour", "in 2 minutes" (issue 68, item 11).
 * The server says a 429's wait in seconds (`Retry-After`, and "try again in 3596 seconds" in its
 * message). `roundedWait` is the rounding every language says it with: the page's language through
 * the catalogue's `errors.waitIn` (services/errorTexts.ts), English through `inWords`.
 */
export type WaitUnit = 'moment' | 'seconds' | 'minute' | 'minutes' | 'hour' | 'hours' | 'day' | 'days';

/** A wait as a unit and a count (the ICU arguments of `errors.waitIn`); "about" goes with some units. */
export function roundedWait(seconds: number): { unit: WaitUnit; count: number } {
  const s = Math.max(0, Math.ceil(seconds));
  if (s <= 1) return { unit: 'moment', count: 0 };
  if (s < 45) return { unit: 'seconds', count: s };
  if (s < 90) return { unit: 'minute', count: 1 };
  const minutes = Math.round(s / 60);
  if (minutes < 45) return { unit: 'minutes', count: minutes };
  if (minutes < 90) return { unit: 'hour', count: 1 };
  const hours = Math.round(minutes / 60);
  if (hours < 22) return { unit: 'hours', count: hours };
  const days = Math.round(hours / 24);
  return days <= 1 ? { unit: 'day', count: 1 } : { unit: 'days', count: days };
}

// The English words, as `errors.waitIn` says them in English (a test keeps the two equal).
const ENGLISH: Record<WaitUnit, string> = {
  moment: 'a moment',
  seconds: '# seconds',
  minute: 'about a minute',
  minutes: '# minutes',
  hour: 'about an hour',
  hours: 'about # hours',
  day: 'about a day',
  days: 'about # days',
};

/** A wait in English words: "in about an hour". */
export function inWords(seconds: number): string {
  const { unit, count } = roundedWait(seconds);
  return `in ${ENGLISH[unit].replace('#', String(count))}`;
}

/** A message's "in 3596 seconds" as words ("in about an hour"); any other message as it is. */
export function waitInWords(message: string): string {
  return message.replace(/\bin (\d+) seconds?\b/g, (_, n: string) => inWords(Number(n)));
}
