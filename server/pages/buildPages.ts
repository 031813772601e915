/**
 * The production build of the pages: `next build`, then a compile hint on its scripts.
 * `npm run build`, `npm start` (when there is no build yet) and the browser suite all build here.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** Runs `next build` in the project (output to the terminal); false when it failed. */
export function buildPages(): boolean {
  const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  const result = spawnSync(process.execPath, [next, 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) return false;
  addCompileHints(path.join(root, '.next'));
  return true;
}

/**
 * Marks every chunk of the build for eager compilation, so the browser compiles while the script
 * streams in instead of in one long task at hydration (docs/benchmarks/notes.md#pages-and-static-files).
 * Right for pages-router chunks: each is fetched only when it is about to run. Idempotent: a file
 * that has the hint keeps one. Returns the files it marked.
 */
export function addCompileHints(distDir: string): string[] {
  const chunksDir = path.join(distDir, 'static', 'chunks');
  const files = readdirSync(chunksDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  const marked: string[] = [];
  for (const file of files) {
    const full = path.join(chunksDir, file);
    const code = readFileSync(full, 'utf8');
    if (code.startsWith(COMPILE_HINT)) continue;
    writeFileSync(full, COMPILE_HINT + code);
    marked.push(file);
  }
  return marked;
}

// `npm run build`
if (process.argv[1] === import.meta.filename) process.exitCode = buildPages() ? 0 : 1;
