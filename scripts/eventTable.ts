/**
 * docs/architecture.md's event table, made from the code (issue 69: the hand-kept table missed
 * lines in half its rows). Each event of `EVENT_TYPES`; who publishes it (the files that write
 * `type: '<Event>'`); what this instance's caches do, each line of `INVALIDATION` as written; and
 * who else listens for it (the files that subscribe to the events and name it).
 * `npm run docs:events` writes it between the markers; tests/server/eventTable.test.ts fails on a
 * difference.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_TYPES } from '../server/events/events';

export const BEGIN = '<!-- event table: made by `npm run docs:events` from the code; do not edit by hand -->';
export const END = '<!-- end of the event table -->';

const INVALIDATION_FILE = 'server/invalidation/table.ts';

/** The text between `open` (at `from`) and its matching closer, strings and comments skipped. */
function balanced(text: string, from: number): string {
  const pairs: Record<string, string> = { '[': ']', '{': '}', '(': ')' };
  const stack: string[] = [];
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '/' && text[i + 1] === '/') i = text.indexOf('\n', i);
    else if (ch === "'" || ch === '"' || ch === '`') i = text.indexOf(ch, i + 1);
    else if (pairs[ch]) stack.push(pairs[ch]);
    else if (ch === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return text.slice(from, i + 1);
    }
  }
  throw new Error(`Unbalanced text at ${from}`);
}

/** An array literal's items at its top level, comments left out, whitespace as one space. */
function items(array: string): string[] {
  const body = array
    .slice(1, -1)
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\s+/g, ' ');
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === "'" || ch === '"' || ch === '`') i = body.indexOf(ch, i + 1);
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** Each event's lines of `INVALIDATION`, as written, without the `(e, c) =>` they all start with. */
export function invalidationLines(source: string): Map<string, string[]> {
  const start = source.indexOf('export const INVALIDATION');
  const table = balanced(source, source.indexOf('{', source.indexOf('=', start)));
  const lines = new Map<string, string[]>();
  for (const match of table.matchAll(/^ {2}(\w+): \[/gm)) {
    const array = balanced(table, match.index + match[0].length - 1);
    lines.set(
      match[1],
      items(array).map((line) =>
        line
          .replace(/^\((?:e|_), c\) => /, '')
          .replace(/\bc\./g, '')
          .replace(/\be\./g, '')
          .replace(/\(c, /g, '('),
      ),
    );
  }
  return lines;
}

/** The table, from the files of the repository at `root`. */
export function eventTable(root: string): string {
  const files = execFileSync('git', ['ls-files', 'server'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts') && !f.startsWith('server/events/'));
  const text = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const lines = invalidationLines(text.get(INVALIDATION_FILE)!);
  const listeners = files.filter(
    (f) => f !== INVALIDATION_FILE && /\b(?:events\.subscribe|subscribeOwn)\(/.test(text.get(f)!),
  );
  const short = (f: string) => `\`${f.replace(/^server\//, '')}\``;
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = EVENT_TYPES.map((type) => {
    const publishers = files.filter((f) => text.get(f)!.includes(`type: '${type}'`));
    const heard = listeners.filter((f) => text.get(f)!.includes(`'${type}'`));
    const forget = lines.get(type);
    if (!forget) throw new Error(`${INVALIDATION_FILE} has no line for ${type}`);
    return `| \`${type}\` | ${publishers.map(short).join(', ') || '—'} | ${
      forget.map((l) => `\`${cell(l)}\``).join('<br>') || 'nothing'
    } | ${heard.map(short).join(', ') || '—'} |`;
  });
  return [
    BEGIN,
    "| Event | Published by | What this instance's caches do (`invalidation/table.ts`, `c.` and `e.` left out) | Also heard by |",
    '|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
}

/** The doc with its table made anew. */
export function withEventTable(doc: string, table: string): string {
  const [from, to] = [doc.indexOf(BEGIN), doc.indexOf(END)];
  if (from === -1 || to === -1) throw new Error('docs/architecture.md has no event table markers');
  return doc.slice(0, from) + table + doc.slice(to + END.length);
}

if (process.argv[1]?.endsWith('eventTable.ts')) {
  const root = process.cwd();
  const path = join(root, 'docs/architecture.md');
  writeFileSync(path, withEventTable(readFileSync(path, 'utf8'), eventTable(root)));
}
