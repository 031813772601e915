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
