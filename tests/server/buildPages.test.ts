import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addCompileHints } from '../../server/pages/buildPages';

describe('compile hints on the built pages', () => {
  let dist: string;
  const write = (file: string, code: string) => {
    mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    writeFileSync(path.join(dist, file), code);
  };
  const read = (file: string) => readFileSync(path.join(dist, file), 'utf8');

  beforeEach(() => {
    dist = mkdtempSync(path.join(tmpdir(), 'posts-dist-'));
    write('build-manifest.json', JSON.stringify({
      pages: {
        '/_app': ['static/chunks/framework.js', 'static/chunks/app.js'],
        '/': ['static/chunks/landing.js', 'static/chunks/app.js', 'static/css/landing.css'],
      },
      lowPriorityFiles: ['static/build/_buildManifest.js'],
    }));
    for (const file of ['framework.js', 'app.js', 'landing.js', 'editor.js']) write(`static/chunks/${file}`, `run("${file}");`);
    write('static/css/landing.css', 'body{}');
  });
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  it('marks every script a page loads at start, once, as the first line', () => {
    expect(addCompileHints(dist).sort()).toEqual(['static/chunks/app.js', 'static/chunks/framework.js', 'static/chunks/landing.js']);
    expect(read('static/chunks/app.js')).toBe('//# allFunctionsCalledOnLoad\nrun("app.js");');
    // A second build step over the same output changes nothing.
    expect(addCompileHints(dist)).toEqual([]);
    expect(read('static/chunks/app.js')).toBe('//# allFunctionsCalledOnLoad\nrun("app.js");');
  });

  it('leaves lazily loaded chunks and other files as they are', () => {
    addCompileHints(dist);
    expect(read('static/chunks/editor.js')).toBe('run("editor.js");');
    expect(read('static/css/landing.css')).toBe('body{}');
  });
});
