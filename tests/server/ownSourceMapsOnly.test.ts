/**
 * The server reads the source maps of its own code only (`server/ownSourceMapsOnly.ts`, preloaded by
 * scripts/start.sh): a package's map is not read, so its sources are not held in memory, and a
 * stack trace still names the line of the app's TypeScript.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..', '..');

/** The `--import` modules of the line in scripts/start.sh that starts the server. */
function startScriptImports(): string[] {
  const exec = readFileSync(path.join(root, 'scripts', 'start.sh'), 'utf8')
    .split('\n')
    .find((line) => line.startsWith('exec '));
  return [...(exec ?? '').matchAll(/--import (\S+)/g)].map((match) => match[1]);
}

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'source-maps-'));
  // A package with a map beside it, as most of node_modules ships.
  mkdirSync(path.join(dir, 'node_modules', 'mapped'), { recursive: true });
  writeFileSync(
    path.join(dir, 'node_modules', 'mapped', 'index.js'),
    'exports.one = 1;\n//# sourceMappingURL=index.js.map\n',
  );
  writeFileSync(
    path.join(dir, 'node_modules', 'mapped', 'index.js.map'),
    JSON.stringify({
      version: 3,
      file: 'index.js',
      sources: ['index.ts'],
      sourcesContent: ['export const one = 1;'],
      mappings: 'AAAA',
    }),
  );
  // The app's own TypeScript: the throw is on line 6 of the source, not of what tsx makes of it.
  writeFileSync(
    path.join(dir, 'own.ts'),
    [
      'type Shape = { a: number };',
      '',
      'interface Unused {',
      '  b: string;',
      '}',
      'export const fail = (shape: Shape): never => { throw new Error(`failed ${shape.a}`); };',
      '',
    ].join('\n'),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("starts the server with its own code's source maps only", () => {
  const imports = startScriptImports();
  expect(imports).toEqual(['tsx', './server/ownSourceMapsOnly.ts']);
  const probe = `
    import module, { createRequire } from 'node:module';
    const require = createRequire(${JSON.stringify(path.join(dir, 'probe.js'))});
    const file = require.resolve('mapped');
    require(file);
    let stack = '';
    try { (await import(${JSON.stringify(path.join(dir, 'own.ts'))})).fail({ a: 1 }); } catch (error) { stack = error.stack; }
    console.log(JSON.stringify({ packageMap: module.findSourceMap(file) !== undefined, stack }));
  `;
  const args = imports.flatMap((name) => ['--import', name.startsWith('.') ? path.join(root, name) : name]);
  const out = execFileSync(process.execPath, [...args, '--input-type=module', '-e', probe], {
    cwd: root,
    encoding: 'utf8',
  });
  const { packageMap, stack } = JSON.parse(out.trim().split('\n').pop()!) as { packageMap: boolean; stack: string };
  expect(packageMap).toBe(false);
  expect(stack).toContain(`${path.join(dir, 'own.ts')}:6:`);
});
