/**
 * Fails when the app's modules import each other in a circle, counting type-only imports too
 * (ESLint's import-x/no-cycle skips those). The one circle allowed is the store's: a slice or a
 * store file imports `RootState`/`AppDispatch` back from `store/` as types only.
 *
 * Usage: tsx scripts/check-import-cycles.ts [root]   (part of `npm run lint`)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const SOURCE_DIRS = [
  'lib',
  'server',
  'features',
  'store',
  'components',
  'services',
  'hooks',
  'pages',
  'styles',
  'themes',
];
const EXTENSIONS = ['.ts', '.tsx'];

interface Edge {
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return EXTENSIONS.includes(path.extname(name)) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** Every relative import, re-export and dynamic import of a file, and whether it carries only types. */
function importsOf(file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const edges: Edge[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
    const to = resolve(file, specifier.text);
    if (to) edges.push({ to, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : null;
      const onlyTypes =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name && !!named && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, onlyTypes);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal as ts.Expression, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

const inStore = (file: string) => path.relative(root, file).startsWith(`store${path.sep}`);
const isSlice = (file: string) =>
  inStore(file) || /Slice\.tsx?$|[\\/]features[\\/].*[\\/](state|slice)[\\/]/.test(file);
/** The store <-> slice loop: a slice (or store file) importing store types back. */
const allowed = (from: string, edge: Edge) => edge.typeOnly && inStore(edge.to) && isSlice(from);

const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(root, dir)));
const graph = new Map(
  files.map((f) => [
    f,
    importsOf(f)
      .filter((e) => !allowed(f, e))
      .map((e) => e.to),
  ]),
);

// Tarjan's strongly connected components: any component of two or more files is a circle.
let counter = 0;
const index = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const circles: string[][] = [];
function connect(file: string) {
  index.set(file, counter);
  low.set(file, counter++);
  stack.push(file);
  onStack.add(file);
  for (const next of graph.get(file) ?? []) {
    if (!index.has(next)) {
      connect(next);
      low.set(file, Math.min(low.get(file)!, low.get(next)!));
    } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
  }
  if (low.get(file) !== index.get(file)) return;
  const component: string[] = [];
  let member: string;
  do {
    member = stack.pop()!;
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component);
}
for (const file of files) if (!index.has(file)) connect(file);

if (circles.length > 0) {
  for (const circle of circles) {
    console.error(
      `Import circle (type-only imports included):\n  ${circle.map((f) => path.relative(root, f)).join('\n  ')}`,
    );
  }
  process.exit(1);
}
console.log(`check-import-cycles: no circle in ${files.length} files (type-only imports included)`);
