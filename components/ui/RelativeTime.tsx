type Unit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute';

const units: [Unit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** Short names and the words for ±1, as `Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' })` says them. */
const WORDS: Record<Unit, { short: string; last: string; next: string }> = {
  year: { short: 'yr.', last: 'last yr.', next: 'next yr.' },
  month: { short: 'mo.', last: 'last mo.', next: 'next mo.' },
  week: { short: 'wk.', last: 'last wk.', next: 'next wk.' },
  day: { short: 'days', last: 'yesterday', next: 'tomorrow' },
  hour: { short: 'hr.', last: '1 hr. ago', next: 'in 1 hr.' },
  minute: { short: 'min.', last: '1 min. ago', next: 'in 1 min.' },
};

/**
 * English relative time by hand: no Intl formatter on the render path, whose first use loads ICU
 * data inside the first card's render (docs/frontend.md, Performance).
 */
function formatRelative(value: number, unit: Unit): string {
  const words = WORDS[unit];
  if (value === -1) return words.last;
  if (value === 1) return words.next;
  return value < 0 ? `${-value} ${words.short} ago` : `in ${value} ${words.short}`;
}

/** `toLocaleString('en')` by hand ("11/22/2026, 5:12:48 PM"): the first Intl formatter of a page costs as much. */
export function dateTimeTitle(date: Date): string {
  const hours = date.getHours();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getMonth() + 1}/${date.getDate()}/${date.getFullYear()}, ${hours % 12 || 12}:${pad(date.getMinutes())}:${pad(date.getSeconds())} ${hours < 12 ? 'AM' : 'PM'}`;
}

export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return formatRelative(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

export function RelativeTime({ iso }: { iso: string }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={iso} title={dateTimeTitle(date)} suppressHydrationWarning>
      {relativeTime(iso)}
    </time>
  );
}
