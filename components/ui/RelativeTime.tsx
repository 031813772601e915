import { useLocale } from 'use-intl/react';

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

/** A language's relative-time and date formatters, made once per language and reused (their first use loads ICU data). */
const formatters = new Map<string, { relative: Intl.RelativeTimeFormat; date: Intl.DateTimeFormat }>();

function formattersOf(language: string) {
  let found = formatters.get(language);
  if (!found) {
    found = {
      relative: new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' }),
      date: new Intl.DateTimeFormat(language, {
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        second: '2-digit',
      }),
    };
    formatters.set(language, found);
  }
  return found;
}

/** The title's date and time: English by hand (dateTimeTitle), other languages through Intl. */
export function dateTimeTitleIn(date: Date, language: string): string {
  return language === 'en' ? dateTimeTitle(date) : formattersOf(language).date.format(date);
}

/** "3 hr. ago", "just now": English by hand (formatRelative), other languages through Intl. */
export function relativeTime(iso: string, now = Date.now(), language = 'en'): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) {
      const value = Math.trunc(seconds / size);
      return language === 'en' ? formatRelative(value, unit) : formattersOf(language).relative.format(value, unit);
    }
  }
  // Intl's word for this moment ("ahora", "今"); English keeps the spec's "just now".
  return language === 'en' ? 'just now' : formattersOf(language).relative.format(0, 'second');
}

export function RelativeTime({ iso }: { iso: string }) {
  const language = useLocale();
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return (
    <time dateTime={iso} title={dateTimeTitleIn(date, language)} suppressHydrationWarning>
      {relativeTime(iso, undefined, language)}
    </time>
  );
}
