/**
 * `npm run startup:cpu`: what the main thread spends its CPU on while each audited page starts, from
 * Chromium traces (thread time, not wall time, so other work on the machine counts far less than in
 * Lighthouse's scores). Per page, the median of STARTUP_RUNS (5) loads at 375 px, signed in as an
 * unverified member (as the audit is) or as a visitor: the main thread's CPU from navigation start
 * until the network is idle, split by kind (script evaluation, compilation, callbacks: hydration and
 * React's work, style, layout, parsing, GC), the CPU of the tasks that are long at Lighthouse's 4×
 * CPU slowdown, the blocking time that CPU would give at 4× (Σ max(0, 4·cpu − 50 ms)), and the
 * layout shift. STARTUP_BY_URL=1 also prints the CPU by script. Builds first unless
 * STARTUP_SKIP_BUILD=1; STARTUP_PAGES=home,post picks pages; STARTUP_SAVE=<dir> keeps the traces.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { MOBILE, launchChromium } from '../tests/e2e/chromium';
import { signInViaApi } from '../tests/e2e/content';
import { buildWorld } from '../tests/e2e/pages';
import { startServer } from '../tests/e2e/server';
import { createAccount } from '../tests/e2e/users';
import { startupCpu, type StartupCpu, type TraceEvent } from './lighthouseTrace';

const RUNS = Math.max(1, Number(process.env.STARTUP_RUNS ?? 5));
const AUDITED = (process.env.STARTUP_PAGES ?? 'landing,login,home,profile,tagged,post').split(',');
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink.user_timing',
  'loading',
  'latencyInfo',
].join(',');

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

const server = await startServer({ build: process.env.STARTUP_SKIP_BUILD !== '1' });
const browser = await launchChromium();
try {
  const setup = await browser.newContext({ baseURL: server.baseURL });
  const setupPage = await setup.newPage();
  const world = await buildWorld(setupPage);
  // A new account, as every member's first days are: its email is not verified (the banner shows).
  const member = await createAccount(setupPage);
  await setup.close();
  const rows: string[][] = [];
  const byUrl = new Map<string, number[]>();
  for (const target of world.pages.filter((p) => AUDITED.includes(p.name))) {
    const runs: StartupCpu[] = [];
    for (let i = 0, misses = 0; i < RUNS; i += 1) {
      const context = await browser.newContext({ baseURL: server.baseURL, ...MOBILE });
      const page = await context.newPage();
      if (target.signedIn) await signInViaApi(page, target.name === 'profile' ? world.author : member);
      await browser.startTracing(page, { categories: CATEGORIES.split(',') });
      await page.goto(target.path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(1000);
      const raw = await browser.stopTracing();
      if (process.env.STARTUP_SAVE) writeFileSync(path.join(process.env.STARTUP_SAVE, `${target.name}-${i}.json`), raw);
      const trace = JSON.parse(raw.toString('utf8')) as { traceEvents: TraceEvent[] };
      const result = startupCpu(trace.traceEvents);
      if (!result) {
        // Chromium's tracing sometimes misses the navigation's start (as Lighthouse's NO_NAVSTART): again.
        await context.close();
        if ((misses += 1) > 3) throw new Error(`${target.name}: the traces have no navigation`);
        i -= 1;
        continue;
      }
      runs.push(result);
      await context.close();
    }
    const m = (pick: (r: StartupCpu) => number) => median(runs.map(pick)).toFixed(0);
    rows.push([
      target.name,
      m((r) => r.total),
      m((r) => r.kinds.evaluate),
      m((r) => r.kinds.compile),
      m((r) => r.kinds.callbacks),
      m((r) => r.kinds.style),
      m((r) => r.kinds.layout),
      m((r) => r.kinds.parse),
      m((r) => r.kinds.gc),
      m((r) => r.kinds.other),
      m((r) => r.longTaskCpu),
      m((r) => r.blockingAt4x),
      median(runs.map((r) => r.layoutShift)).toFixed(3),
      runs.map((r) => r.total.toFixed(0)).join(' '),
    ]);
    for (const run of runs) {
      for (const [url, ms] of Object.entries(run.byUrl)) {
        const key = `${target.name} ${url}`;
        byUrl.set(key, [...(byUrl.get(key) ?? []), ms]);
      }
    }
  }
  const header = [
    'page',
    'CPU ms',
    'evaluate',
    'compile',
    'callbacks',
    'style',
    'layout',
    'parse',
    'gc',
    'other',
    'long-task CPU',
    'blocking at 4×',
    'shift',
    'CPU of each run',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(`\nMain-thread CPU at start-up (ms of thread time, median of ${RUNS} loads at 375 px)`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  if (process.env.STARTUP_BY_URL === '1') {
    console.log('\nBy script (median ms over the runs that ran it):');
    for (const [key, values] of [...byUrl].sort()) console.log(`${key}  ${median(values).toFixed(1)}`);
  }
} finally {
  await browser.close();
  await server.stop();
}
