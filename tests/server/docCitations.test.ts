/**
 * Every citation of the docs in the repository names a file that exists and a heading it has
 * (`scripts/docCitations.ts`; issue 69: code cited headings that did not exist).
 */
import { join } from 'node:path';
import { brokenCitations, citationsIn, problemOf, slugOf } from '../../scripts/docCitations';

// Paths joined at run time, so that this file's own text cites nothing.
const [SAMPLE, GONE, OTHER] = ['sample', 'gone', 'other'].map((name) => ['docs', `${name}.md`].join('/'));
const DOC = [
  '# Benchmarks',
  '## Images from elsewhere (2026-12-05, 22:30–22:50 UTC, issue 68)',
  "### The whole `--mix` run on `54e45f8`; what didn't help",
  '- **Shared rows** (issue 24): list reads from memory.',
  '```',
  '## Not a heading (fenced)',
  '```',
].join('\n');
const read = (file: string) => (file === SAMPLE ? DOC : null);
const problems = (from: string, text: string) =>
  citationsIn(from, text)
    .map((c) => problemOf(c, read))
    .filter(Boolean);

describe('doc citations', () => {
  it('anchors are GitHub slugs of headings (punctuation and en dashes dropped)', () => {
    expect(slugOf('Images from elsewhere (2026-12-05, 22:30–22:50 UTC, issue 68)')).toBe(
      'images-from-elsewhere-2026-12-05-22302250-utc-issue-68',
    );
    expect(slugOf("The whole `--mix` run on `54e45f8`; what didn't help")).toBe(
      'the-whole---mix-run-on-54e45f8-what-didnt-help',
    );
  });

  it('finds anchors, quoted titles over comment lines, and Markdown links, and says what is wrong', () => {
    const code = [
      `// ok (${SAMPLE}#images-from-elsewhere-2026-12-05-22302250-utc-issue-68)`,
      `// a guessed slug (${SAMPLE}#images-from-elsewhere-2026-12-05-2230-2250-utc-issue-68)`,
      ` * ok (${SAMPLE}, "The whole \`--mix\` run on`,
      ' *   `54e45f8`; what didn\'t")',
      `// ok, an entry (${SAMPLE}, "Shared rows")`,
      `// no such title (${SAMPLE}, "Memory")`,
      `// fenced is no heading (${SAMPLE}, "Not a heading")`,
      `// no such file (${GONE}#x)`,
    ].join('\n');
    expect(citationsIn('server/x.ts', code)).toHaveLength(7);
    expect(problems('server/x.ts', code)).toEqual([
      `${SAMPLE} has no heading #images-from-elsewhere-2026-12-05-2230-2250-utc-issue-68`,
      `${SAMPLE} has no heading starting "Memory"`,
      `${SAMPLE} has no heading starting "Not a heading"`,
      `${GONE} does not exist`,
    ]);
    const markdown = '[ok](sample.md#benchmarks) · [bad](sample.md#nope) · [here](#nope) · [web](https://x.y/#a)';
    expect(problems(`${OTHER}`, markdown)).toEqual([`${SAMPLE} has no heading #nope`, `${OTHER} does not exist`]);
  });

  it('every citation in the repository holds', () => {
    expect(brokenCitations(join(__dirname, '../..'))).toEqual([]);
  });
});
