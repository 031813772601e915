/**
 * How long to wait, in words a person reads: "in about an hour", "in 2 minutes" (issue 68, item 11).
 * The server says a 429's wait in seconds (`Retry-After`, and "try again in 3596 seconds" in its
 * message); the client shows it through `inWords`, wherever a message carries such a wait.
 */
export function inWords(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s <= 1) return 'in a moment';
  if (s < 45) return `in ${s} seconds`;
  if (s < 90) return 'in about a minute';
  const minutes = Math.round(s / 60);
  if (minutes < 45) return `in ${minutes} minutes`;
  if (minutes < 90) return 'in about an hour';
  const hours = Math.round(minutes / 60);
  if (hours < 22) return `in about ${hours} hours`;
  const days = Math.round(hours / 24);
  return days <= 1 ? 'in about a day' : `in about ${days} days`;
}

/** A message's "in 3596 seconds" as words ("in about an hour"); any other message as it is. */
export function waitInWords(message: string): string {
  return message.replace(/\bin (\d+) seconds?\b/g, (_, n: string) => inWords(Number(n)));
}
