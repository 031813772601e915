/**
 * No two folders of `server/` import each other (type-only imports count): each folder sits above
 * or below another, so a change to one never needs the other's in turn; a pair fails this test
 * (docs/architecture.md, "Layers").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SERVER = path.resolve(import.meta.dirname, '../../server');

/** None left: auth reads the users table through a shape of its own (`auth/accounts.ts`). */
const KNOWN_PAIRS: string[] = [];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** A file's folder under `server/`; files at its top are the composition (they may import anything). */
const folderOf = (file: string): string | null => {
  const parts = path.relative(SERVER, file).split(path.sep);
  return parts.length > 1 ? parts[0] : null;
};

function folderImports(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of files(SERVER)) {
    const from = folderOf(file);
    if (!from) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), match[1]);
      if (path.relative(SERVER, target).startsWith('..')) continue;
      const to = folderOf(target) ?? path.relative(SERVER, target).split(path.sep)[0];
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  return edges;
}

function pairsOf(edges: Map<string, Set<string>>): string[] {
  const pairs: string[] = [];
  for (const [from, tos] of edges)
    for (const to of tos) if (from < to && edges.get(to)?.has(from)) pairs.push(`${from} <-> ${to}`);
  return pairs.sort();
}

describe('the folders of server/', () => {
  it('import each other in no pair but the known one', () => {
    expect(pairsOf(folderImports())).toEqual(KNOWN_PAIRS);
  });

  it('a pair is two folders each importing the other, one way is none', () => {
    const edges = new Map([
      ['cache', new Set(['domain'])],
      ['posts', new Set(['cache', 'users'])],
      ['users', new Set(['posts'])],
    ]);
    expect(pairsOf(edges)).toEqual(['posts <-> users']);
    // And the reading of the files finds the imports: posts/ imports cache/.
    expect(folderImports().get('posts')?.has('cache')).toBe(true);
  });
});
