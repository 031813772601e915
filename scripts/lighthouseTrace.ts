/** What `npm run audit:pages` reads from a Lighthouse run's trace besides Lighthouse's own audits. */

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Time the thread was on a CPU (µs), where the trace records thread times. */
  tdur?: number;
  args?: { data?: { documentLoaderURL?: string } };
}

/**
 * The share of their wall time the page's main-thread tasks spent on a CPU, over the tasks that
 * become long under Lighthouse's 4× CPU multiplier (≥ 12.5 ms). Lighthouse simulates from wall
 * durations, so a task that waited for a core (here: Chromium's workers compiling the page's
 * scripts on both of a 2-core machine's cores) counts as four times its waiting. Null when the
 * trace has no thread times.
 */
export function mainThreadCpuShare(events: readonly TraceEvent[]): number | null {
  const start = events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'));
  if (!start) return null;
  const tasks = events.filter(
    (e) =>
      e.pid === start.pid &&
      e.tid === start.tid &&
      e.ph === 'X' &&
      e.name === 'RunTask' &&
      e.ts >= start.ts &&
      (e.dur ?? 0) >= 12_500,
  );
  const wall = tasks.reduce((sum, e) => sum + (e.dur ?? 0), 0);
  const cpu = tasks.reduce((sum, e) => sum + (e.tdur ?? 0), 0);
  return wall > 0 && cpu > 0 ? cpu / wall : null;
}

/** Where a page's main thread spent its CPU while starting (`npm run startup:cpu`), in ms. */
export interface StartupCpu {
  /** Every task's thread time from navigation start to the trace's end. */
  total: number;
  kinds: Record<Kind, number>;
  /** Thread time of the tasks that are long (≥ 50 ms) at the CPU slowdown (Lighthouse's 4× by default). */
  longTaskCpu: number;
  /** The blocking time those tasks' CPU would make at the slowdown: Σ max(0, slowdown·cpu − 50 ms). */
  blockingAt4x: number;
  /** Sum of the main frame's layout shifts not caused by input. */
  layoutShift: number;
  /** Thread time by the script that ran it (file name), where the trace says. */
  byUrl: Record<string, number>;
}

type Kind = 'evaluate' | 'compile' | 'callbacks' | 'style' | 'layout' | 'parse' | 'gc' | 'other';

interface FullEvent extends TraceEvent {
  tts?: number;
  args?: {
    data?: {
      documentLoaderURL?: string;
      url?: string;
      weighted_score_delta?: number;
      had_recent_input?: boolean;
      is_main_frame?: boolean;
    };
  };
}

/** The kind an event's own time is, whatever runs it (null: the kind of the code that called it). */
function ownKind(name: string): Kind | null {
  if (name === 'ParseHTML') return 'parse';
  if (/GC|garbage/i.test(name)) return 'gc';
  if (/compile|V8\.Parse|v8\.parse|CompileScript|StreamingCompile|V8\.Deserialize/i.test(name)) return 'compile';
  if (/UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|StyleRecalc/.test(name)) return 'style';
  if (/^(Layout|UpdateLayerTree|PrePaint|Paint|Layerize|Commit|HitTest|IntersectionObserverController)/.test(name))
    return 'layout';
  return null;
}

/** The kind of the code a task runs: module evaluation, or a callback (React's work, timers, events). */
function callerKind(name: string): Kind | null {
  if (name === 'EvaluateScript' || name === 'v8.run' || name === 'v8.evaluateModule') return 'evaluate';
  if (
    /^(FunctionCall|TimerFire|FireAnimationFrame|FireIdleCallback|EventDispatch|RunMicrotasks|v8.callFunction|XHRReadyStateChange|XHRLoad|ResourceReceivedData)/.test(
      name,
    )
  )
    return 'callbacks';
  return null;
}

/**
 * A page's start-up CPU on its main thread, from a trace with thread times; null without a
 * navigation. `slowdown`: Lighthouse's simulated 4× by default; 1 for a trace whose CPU was already
 * slowed (devtools throttling).
 */
export function startupCpu(events: readonly TraceEvent[], slowdown = 4): StartupCpu | null {
  const all = events as readonly FullEvent[];
  const start = all.findLast(
    (e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'),
  );
  if (!start) return null;
  const own = all
    .filter(
      (e) => e.pid === start.pid && e.tid === start.tid && e.ph === 'X' && e.ts >= start.ts && e.tdur !== undefined,
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const kinds: Record<Kind, number> = {
    evaluate: 0,
    compile: 0,
    callbacks: 0,
    style: 0,
    layout: 0,
    parse: 0,
    gc: 0,
    other: 0,
  };
  const byUrl: Record<string, number> = {};
  let total = 0;
  let longTaskCpu = 0;
  let blockingAt4x = 0;
  // Each event's own time: its thread time less its children's.
  const stack: { event: FullEvent; childCpu: number }[] = [];
  const close = (entry: { event: FullEvent; childCpu: number }) => {
    const self = Math.max(0, (entry.event.tdur ?? 0) - entry.childCpu) / 1000;
    const path = [...stack.map((s) => s.event), entry.event];
    let kind = ownKind(entry.event.name);
    if (!kind) kind = path.map((e) => callerKind(e.name)).find((k) => k !== null) ?? 'other';
    kinds[kind] += self;
    const withUrl = path.findLast((e) => e.args?.data?.url);
    if (withUrl) {
      const file = (withUrl.args?.data?.url ?? '').split('?')[0].split('/').pop() ?? '';
      byUrl[file] = (byUrl[file] ?? 0) + self;
    }
    const parent = stack.at(-1);
    if (parent) parent.childCpu += entry.event.tdur ?? 0;
    else {
      const cpu = (entry.event.tdur ?? 0) / 1000;
      total += cpu;
      if (cpu * slowdown >= 50) longTaskCpu += cpu;
      blockingAt4x += Math.max(0, cpu * slowdown - 50);
    }
  };
  for (const event of own) {
    while (stack.length && stack.at(-1)!.event.ts + (stack.at(-1)!.event.dur ?? 0) <= event.ts) close(stack.pop()!);
    stack.push({ event, childCpu: 0 });
  }
  while (stack.length) close(stack.pop()!);
  const layoutShift = all
    .filter((e) => e.name === 'LayoutShift' && e.ts >= start.ts && !e.args?.data?.had_recent_input)
    .filter((e) => e.args?.data?.is_main_frame !== false)
    .reduce((sum, e) => sum + (e.args?.data?.weighted_score_delta ?? 0), 0);
  return { total, kinds, longTaskCpu, blockingAt4x, layoutShift, byUrl };
}
