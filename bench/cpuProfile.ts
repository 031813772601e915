/** CPU profiles of the in-process benches (`--profile`): taken, written, and where their time went. */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Self and inclusive time by function, from a profile, per request. */
export function summariseProfile(
  profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] },
  perRequest: number,
) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(server|node_modules|lib)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') return;
    self.set(key(node), (self.get(key(node)) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = key(byId.get(at)!);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  });
  const print = (title: string, map: Map<string, number>, top: number) => {
    console.log(`  ${title} (µs per request)`);
    for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`    ${(us / perRequest).toFixed(1).padStart(7)}  ${k}`);
  };
  print('self', self, 25);
  print('inclusive', inclusive, 60);
}

/**
 * Starts V8's sampling profiler (every 100 µs) in this process. `stop` writes the profile to `file`
 * and, given `perRequest`, prints where its time went per request.
 */
export async function startProfile(): Promise<(file: string, perRequest?: number) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return async (file, perRequest) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    writeFileSync(file, JSON.stringify(profile));
    console.log(`profile in ${file}`);
    if (perRequest !== undefined) summariseProfile(profile as never, perRequest);
  };
}
