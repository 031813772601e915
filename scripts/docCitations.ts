/**
 * Citations of the docs checked against the docs (issue 69: code cited headings that did not
 * exist). A citation is `docs/<file>.md#anchor`, `docs/<file>.md, "Heading or its start"` (the
 * title may run over comment lines), or, inside a doc, a Markdown link to a `.md` file or `#anchor`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** GitHub's anchor for a heading: lower case, punctuation (dashes but `-`) dropped, spaces as `-`. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/**
 * A doc's headings, as written (outside fenced code), and the bold lead of a top-level list item
 * (`- **Shared rows** (issue 24): …`): docs/api-decisions.md's entries are cited by it.
 */
export function headingsOf(markdown: string): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const match = !fenced && /^#{1,6} (.*?)\s*#*\s*$/.exec(line);
    if (match) found.push(match[1]);
    const entry = !fenced && /^- \*\*(.+?)\*\*/.exec(line);
    if (entry) found.push(entry[1]);
  }
  return found;
}

export type Citation = { from: string; line: number; file: string; anchor?: string; title?: string };

/** Text joined across comment lines: the `*`, `//` or `#` that starts each line left out. */
const joinLines = (text: string) => text.replace(/\s*\n\s*(?:\*(?!\*)|\/\/|#(?!#))?\s*/g, ' ');

/** The citations of `docs/…md` in a file's text (`from`: its path from the repository's root). */
export function citationsIn(from: string, text: string): Citation[] {
  const found: Citation[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const cite = /(?<![\w/.-])docs\/([\w./-]+?\.md)(?:#([\w%-]+)|,?\s*"([^"]{1,300})")?/g;
  for (const m of text.matchAll(cite)) {
    const title = m[3] === undefined ? undefined : joinLines(m[3]).trim();
    found.push({ from, line: lineAt(m.index), file: `docs/${m[1]}`, anchor: m[2], title });
  }
  if (from.endsWith('.md')) {
    for (const m of text.matchAll(/\]\((?!https?:|mailto:)([^)\s#]*)(?:#([^)\s]+))?\)/g)) {
      const [target, anchor] = [m[1], m[2]];
      if (target !== '' && !target.endsWith('.md')) continue;
      const file = target === '' ? from : normalize(join(dirname(from), target));
      if (!file.startsWith('docs/') && target !== '') continue;
      found.push({ from, line: lineAt(m.index), file, anchor });
    }
  }
  return found;
}

/** What is wrong with a citation, or null: `read` gives a doc's text (null when missing). */
export function problemOf(citation: Citation, read: (file: string) => string | null): string | null {
  const doc = read(citation.file);
  if (doc === null) return `${citation.file} does not exist`;
  const headings = headingsOf(doc);
  if (citation.anchor !== undefined && !headings.some((h) => slugOf(h) === citation.anchor))
    return `${citation.file} has no heading #${citation.anchor}`;
  if (citation.title !== undefined) {
    const title = citation.title.replace(/\s+/g, ' ');
    if (!headings.some((h) => h.replace(/\s+/g, ' ').startsWith(title)))
      return `${citation.file} has no heading starting "${title}"`;
  }
  return null;
}

/** Every broken citation in the repository's tracked files, as `path:line: problem`. */
export function brokenCitations(root: string): string[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => /\.(ts|tsx|js|mjs|cjs|md|sh|json|yml|yaml)$|(^|\/)run$/.test(f) && !f.startsWith('.tools/'));
  const cache = new Map<string, string | null>();
  const read = (file: string) => {
    if (!cache.has(file)) {
      const path = join(root, file);
      cache.set(file, existsSync(path) ? readFileSync(path, 'utf8') : null);
    }
    return cache.get(file)!;
  };
  const problems: string[] = [];
  for (const from of files) {
    const text = read(from);
    if (text === null || (!text.includes('docs/') && !(from.endsWith('.md') && text.includes('](')))) continue;
    for (const citation of citationsIn(from, text)) {
      const problem = problemOf(citation, read);
      if (problem) problems.push(`${relative(root, join(root, from))}:${citation.line}: ${problem}`);
    }
  }
  return problems;
}

if (process.argv[1]?.endsWith('docCitations.ts')) {
  const problems = brokenCitations(process.cwd());
  for (const p of problems) console.log(p);
  console.log(problems.length === 0 ? 'Every citation of the docs holds.' : `${problems.length} broken.`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
