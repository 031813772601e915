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
    for (const file of ['app.js', 'pages/landing.js']) write(`static/chunks/${file}`, `run("${file}");`);
    write('static/chunks/app.js.map', '{}');
    write('static/css/landing.css', 'body{}');
    write('static/build/_buildManifest.js', 'self.__BUILD_MANIFEST={};');
  });
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  it('marks every chunk, once, as its first line', () => {
    expect(addCompileHints(dist).sort()).toEqual(['app.js', 'pages/landing.js']);
    expect(read('static/chunks/app.js')).toBe('//# allFunctionsCalledOnLoad\nrun("app.js");');
    // A second build step over the same output changes nothing.
    expect(addCompileHints(dist)).toEqual([]);
    expect(read('static/chunks/app.js')).toBe('//# allFunctionsCalledOnLoad\nrun("app.js");');
  });

  it('leaves what is not a chunk as it is', () => {
    addCompileHints(dist);
    expect(read('static/chunks/pages/landing.js')).toBe('//# allFunctionsCalledOnLoad\nrun("pages/landing.js");');
    expect(read('static/chunks/app.js.map')).toBe('{}');
    expect(read('static/css/landing.css')).toBe('body{}');
    expect(read('static/build/_buildManifest.js')).toBe('self.__BUILD_MANIFEST={};');
  });
});
