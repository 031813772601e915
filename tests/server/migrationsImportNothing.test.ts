/**
 * A migration is frozen as of the day it was written: it imports kysely, Node's built-ins and its
 * own folder only. Code of the app it imported would change under it, and a database migrated
 * later would be made by other code than one migrated then (issue 69: 015 read the app's domain rule).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

const FOLDER = join(__dirname, '../../server/db/migrations');

/** What a file imports or requires: the module names, as written. */
function importsOf(source: string): string[] {
  const found: string[] = [];
  const pattern =
    /\b(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]|\brequire\s*\(\s*['"]([^'"]+)['"]/g;
  for (const match of source.matchAll(pattern)) found.push(match[1] ?? match[2] ?? match[3]);
  return found;
}

/** Whether a migration may import `name`: kysely, a Node built-in, or a file of the migrations folder. */
function allowedInMigration(name: string): boolean {
  if (name === 'kysely') return true;
  if (name.startsWith('node:') || builtinModules.includes(name)) return true;
  return name.startsWith('./') && !name.slice(2).includes('/');
}

describe('migrations', () => {
  it('import nothing from the app', () => {
    const files = readdirSync(FOLDER).filter((f) => /\.[cm]?[jt]s$/.test(f));
    expect(files.length).toBeGreaterThan(20);
    const outside = files.flatMap((file) =>
      importsOf(readFileSync(join(FOLDER, file), 'utf8'))
        .filter((name) => !allowedInMigration(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(outside).toEqual([]);
  });

  it('the check sees an import from the app, a dynamic one, and a type-only one', () => {
    const sample = [
      "import { type Kysely, sql } from 'kysely';",
      "import { isIP } from 'node:net';",
      "import { severityIn } from '../../federation/domainName';",
      "import type { Db } from '../database';",
      "const m = await import('../../config');",
      "import { helper } from './shared';",
    ].join('\n');
    expect(importsOf(sample).filter((name) => !allowedInMigration(name))).toEqual([
      '../../federation/domainName',
      '../database',
      '../../config',
    ]);
  });
});
