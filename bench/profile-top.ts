/**
 * Summarises a V8 .cpuprofile (from `npm run bench -- --cpu-prof`): self time by function and by
 * package, so the cost of a slow row can be read without a browser's DevTools.
 *   tsx bench/profile-top.ts data/bench/profiles/CPU.*.cpuprofile [--top 30]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: tsx bench/profile-top.ts <file.cpuprofile> [--top N]');
const topIndex = process.argv.indexOf('--top');
const top = topIndex > 0 ? Number(process.argv[topIndex + 1]) : 30;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** node_modules/<pkg> or node: or the project file. */
const packageOf = (url: string) => {
  if (!url) return '(native / V8)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node core';
  return url.replace(/^file:\/\/.*?\/(server|lib)\//, '$1/');
};
const functions = new Map<string, number>();
const packages = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = byId.get(id)!.callFrame;
  const key = `${frame.functionName || '(anonymous)'}  ${packageOf(frame.url)}:${frame.lineNumber + 1}`;
  functions.set(key, (functions.get(key) ?? 0) + us);
  packages.set(packageOf(frame.url), (packages.get(packageOf(frame.url)) ?? 0) + us);
}
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
  }
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
print('Self time by package', packages);
print('Self time by function', functions);
