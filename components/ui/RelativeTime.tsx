const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

// Building an Intl formatter is costly (locale data); one of each serves every card and comment.
let relativeFormat: Intl.RelativeTimeFormat | undefined;
let dateFormat: Intl.DateTimeFormat | undefined;
/** The fields of `toLocaleString('en')`. */
const DATE_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' };

export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = (relativeFormat ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' }));
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

export function RelativeTime({ iso }: { iso: string }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={iso} title={(dateFormat ??= new Intl.DateTimeFormat('en', DATE_TIME)).format(date)} suppressHydrationWarning>
      {relativeTime(iso)}
    </time>
  );
}
