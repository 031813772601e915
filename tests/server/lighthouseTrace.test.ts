import { mainThreadCpuShare, type TraceEvent } from '../../scripts/lighthouseTrace';

const MAIN = { pid: 10, tid: 10 };
const navigation: TraceEvent = {
  name: 'navigationStart',
  ph: 'R',
  ...MAIN,
  ts: 1_000,
  args: { data: { documentLoaderURL: 'http://127.0.0.1:3000/' } },
};
const task = (ts: number, ms: number, cpuMs: number | undefined, thread = MAIN): TraceEvent => ({
  name: 'RunTask',
  ph: 'X',
  ...thread,
  ts,
  dur: ms * 1000,
  tdur: cpuMs === undefined ? undefined : cpuMs * 1000,
});

describe('mainThreadCpuShare', () => {
  it("is the CPU share of the page main thread's long tasks after the navigation", () => {
    const events = [
      // The about:blank navigation Lighthouse starts from does not count.
      { ...navigation, ts: 0, args: { data: { documentLoaderURL: '' } } },
      navigation,
      task(500, 40, 1), // before the navigation
      task(2_000, 60, 10),
      task(100_000, 20, 10),
      task(200_000, 12, 1), // short even at 4×
      task(300_000, 80, 0, { pid: 10, tid: 11 }), // another thread
      { name: 'Layout', ph: 'X', ...MAIN, ts: 2_500, dur: 50_000, tdur: 5_000 }, // inside a task
    ];
    expect(mainThreadCpuShare(events)).toBeCloseTo(20 / 80);
  });

  it('is null without thread times or without a navigation', () => {
    expect(mainThreadCpuShare([navigation, task(2_000, 60, undefined)])).toBeNull();
    expect(mainThreadCpuShare([task(2_000, 60, 30)])).toBeNull();
  });
});
