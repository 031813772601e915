/**
 * `npm run audit:pages`: Lighthouse (mobile preset) on the main pages of a production build with
 * realistic content, signed in where needed. Prints each category score and the main metrics per
 * page, the shared first-load JavaScript (gzip) from the build, and writes the reports (and each
 * page's final screenshot, to check what was measured) to ./reports/.
 * Builds first unless AUDIT_SKIP_BUILD=1. Lighthouse's simulated timings scale the CPU time it
 * measures, so other work on the machine lowers the scores: AUDIT_WAIT_IDLE=1 waits (up to three
 * minutes) before each page for ten quiet seconds, and the table shows the load it ran at. Each
 * page is measured up to AUDIT_RUNS times (3): the table shows the run with the median performance
 * score (Lighthouse's variability advice: one run is not a measurement) and every run's score. A page
 * stops early once the median of all AUDIT_RUNS is certain to clear the budget, or to miss it.
 *
 * Each page gets a new browser. The signed-in pages are measured as a member sees them: the audit
 * signs in through the login form in the browser Lighthouse drives, so the session is in its cookie
 * jar (Lighthouse keeps cookies between runs) and the page sees what a member's browser holds (the
 * HttpOnly cookies and the readable `has_session` hint).
 *
 * AUDIT_LANGUAGE=es (any of lib/i18n/languages.ts) measures the pages in that language: the browser
 * asks for it by `Accept-Language`, as a visitor's would, and the member's account has none chosen.
 *
 * Every missed budget is named and makes the exit code 1: a page's median performance under 95, a
 * layout shift over 0.02 in any run, accessibility under 100, best practices, SEO, the shared first
 * load, a page that ended elsewhere. `--check` (CI, `.ci/run`, after the browser suite, reusing its
 * build with AUDIT_SKIP_BUILD=1) first waits for the machine to be quiet, once. `--throttling
 * devtools` measures under Lighthouse's devtools throttling (the CPU really slowed 4× and the network
 * throttled in the browser) instead of its default simulation from an unthrottled load. Each row
 * also shows what the page's own main thread did on a CPU (`CPU ms`, thread time from the trace, and
 * the blocking time that CPU alone would make at Lighthouse's 4×), which other work on the machine
 * barely changes, unlike the wall times Lighthouse scores (scripts/lighthouseTrace.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type RunnerResult } from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, launchChromium } from '../tests/e2e/chromium';
import { buildWorld } from '../tests/e2e/pages';
import { isLanguage, LANGUAGES } from '../lib/i18n/languages';
import { startServer } from '../tests/e2e/server';
import { medianDecided } from './auditRuns';
import { mainThreadCpuShare, startupCpu } from './lighthouseTrace';

const root = path.resolve(import.meta.dirname, '..');
const reportsDir = path.join(root, 'reports');
const BUDGETS = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 90 } as const;
/** Cumulative layout shift allowed in any run of a page. */
const CLS_BUDGET = 0.02;
const SHARED_JS_BUDGET_KB = 150;
/** Runs per page (AUDIT_RUNS); the table shows the run with the median performance score. */
const RUNS = Math.max(1, Number(process.env.AUDIT_RUNS ?? 3));
const LANGUAGE = process.env.AUDIT_LANGUAGE;
if (LANGUAGE !== undefined && !isLanguage(LANGUAGE))
  throw new Error(`AUDIT_LANGUAGE takes one of ${LANGUAGES.join(', ')}`);
/** The reports' names: the page's, with the language when one is asked for. */
const reportName = (page: string) => (LANGUAGE ? `${page}-${LANGUAGE}` : page);
const args = process.argv.slice(2);
/** CI: first wait (at most three minutes) for the machine to be quiet, once; every miss fails. */
const CHECK = args.includes('--check');
const throttlingArg = args.find((a) => a.startsWith('--throttling'));
const THROTTLING = (
  throttlingArg?.includes('=') ? throttlingArg.split('=')[1] : args[args.indexOf('--throttling') + 1]
) as 'simulate' | 'devtools' | undefined;
if (throttlingArg && THROTTLING !== 'simulate' && THROTTLING !== 'devtools')
  throw new Error("--throttling takes simulate (Lighthouse's default) or devtools");

/** Gzip size of the JavaScript every page loads (the `_app` chunks and polyfills). */
export function sharedFirstLoadKb(): number {
  const manifest = JSON.parse(readFileSync(path.join(root, '.next/build-manifest.json'), 'utf8')) as {
    pages: Record<string, string[]>;
    polyfillFiles: string[];
  };
  const files = new Set([...manifest.pages['/_app'], ...manifest.polyfillFiles].filter((f) => f.endsWith('.js')));
  let bytes = 0;
  for (const file of files) bytes += gzipSync(readFileSync(path.join(root, '.next', file))).length;
  return bytes / 1024;
}

/** Gzip size of each page's own first-load JavaScript: its chunks besides the shared ones. */
export function pageFirstLoadKb(): Record<string, number> {
  const manifest = JSON.parse(readFileSync(path.join(root, '.next/build-manifest.json'), 'utf8')) as {
    pages: Record<string, string[]>;
    polyfillFiles: string[];
  };
  const shared = new Set([...manifest.pages['/_app'], ...manifest.polyfillFiles]);
  const sizes: Record<string, number> = {};
  for (const [page, files] of Object.entries(manifest.pages)) {
    if (page === '/_app' || page === '/_error') continue;
    const own = files.filter((f) => f.endsWith('.js') && !shared.has(f));
    sizes[page] = own.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(root, '.next', f))).length, 0) / 1024;
  }
  return sizes;
}

/** Busy share of all CPUs over `ms` (from /proc/stat). */
async function cpuBusy(ms: number): Promise<number> {
  const sample = () => readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const a = sample();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = sample();
  const total = b.reduce((sum, v, i) => sum + v - a[i], 0);
  const idle = b[3] - a[3] + (b[4] - a[4]);
  return total > 0 ? 1 - idle / total : 0;
}

/** Waits (at most three minutes) for ten seconds in a row of idle CPUs. */
async function waitForIdle(): Promise<void> {
  const until = Date.now() + 180_000;
  let quiet = 0;
  while (Date.now() < until && quiet < 5) quiet = (await cpuBusy(2000)) > 0.1 ? 0 : quiet + 1;
}

/** Signs in through the login form of the browser Lighthouse drives (port), as a member would. */
async function signInBrowser(port: number, baseURL: string, email: string, password: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0].newPage();
    await page.goto(`${baseURL}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/home');
    await page.close();
  } finally {
    // Disconnects; the browser (and its cookie jar) stays for Lighthouse.
    await browser.close();
  }
}

const server = await startServer({ build: process.env.AUDIT_SKIP_BUILD !== '1' });
const launchChrome = () =>
  chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: CHROMIUM_FLAGS });
let chrome: chromeLauncher.LaunchedChrome | undefined;
let failed = false;
const misses: string[] = [];
try {
  const browser = await launchChromium();
  const context = await browser.newContext({ baseURL: server.baseURL });
  const world = await buildWorld(await context.newPage());
  await browser.close();
  // The browser suite's server and browsers have just stopped (CI): let the machine settle first.
  if (CHECK) await waitForIdle();
  // AUDIT_PAGES=home,post audits some of them (a measurement, not the check).
  const audited = (process.env.AUDIT_PAGES ?? 'landing,login,home,profile,tagged,post').split(',');
  mkdirSync(reportsDir, { recursive: true });

  const rows: string[][] = [];
  // Public pages first (signed out), then the signed-in ones.
  const pages = world.pages
    .filter((p) => audited.includes(p.name))
    .sort((a, b) => Number(a.signedIn) - Number(b.signedIn));
  for (const page of pages) {
    // A browser of its own for each page, so each starts from the same state whatever came before.
    await chrome?.kill();
    chrome = await launchChrome();
    const { port } = chrome;
    if (page.signedIn) await signInBrowser(port, server.baseURL, world.author.email, world.author.password);
    if (process.env.AUDIT_WAIT_IDLE === '1') await waitForIdle();
    const load = loadavg()[0].toFixed(2);
    const run = () =>
      lighthouse(`${server.baseURL}${page.path}`, {
        port,
        output: ['html', 'json'],
        logLevel: 'error',
        ...(THROTTLING ? { throttlingMethod: THROTTLING } : {}),
        ...(LANGUAGE ? { extraHeaders: { 'Accept-Language': LANGUAGE } } : {}),
      });
    const results: RunnerResult[] = [];
    const perf = (r: RunnerResult) => r.lhr.categories.performance?.score ?? 0;
    const scores = () => results.map((r) => Math.round(perf(r) * 100));
    for (let i = 0; i < RUNS && !medianDecided(scores(), RUNS, BUDGETS.performance); i += 1) {
      let result = await run();
      // Chromium's tracing sometimes misses the navigation start (NO_NAVSTART): measure again.
      for (let attempt = 0; attempt < 2 && result?.lhr.runtimeError; attempt += 1) result = await run();
      if (result) results.push(result);
    }
    // The run with the median performance score; its metrics are the ones shown.
    const byScore = [...results].sort((a, b) => perf(a) - perf(b));
    const result = byScore[Math.floor((byScore.length - 1) / 2)];
    if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`);
    const perfScores = byScore.map((r) => Math.round(perf(r) * 100));
    if (result.lhr.runtimeError) console.warn(`${page.name}: ${result.lhr.runtimeError.message}`);
    const [html, json] = result.report as string[];
    writeFileSync(path.join(reportsDir, `${reportName(page.name)}.html`), html);
    writeFileSync(path.join(reportsDir, `${reportName(page.name)}.json`), json);
    const { categories, audits } = result.lhr;
    const screenshot = (audits['final-screenshot']?.details as { data?: string } | undefined)?.data;
    if (screenshot)
      writeFileSync(
        path.join(reportsDir, `${reportName(page.name)}-final.jpg`),
        Buffer.from(screenshot.split(',')[1], 'base64'),
      );
    // A page that sent the browser elsewhere (a lost session goes to /) measured the wrong page.
    const landed = new URL(result.lhr.finalDisplayedUrl).pathname;
    if (landed !== new URL(page.path, server.baseURL).pathname) {
      misses.push(`${page.name}: ended on ${landed}, not ${page.path}`);
    }
    const score = (id: keyof typeof BUDGETS) => Math.round((categories[id]?.score ?? 0) * 100);
    for (const [id, budget] of Object.entries(BUDGETS) as [keyof typeof BUDGETS, number][]) {
      if (score(id) < budget) misses.push(`${page.name}: ${id} ${score(id)} < ${budget} (the median run)`);
    }
    // A shift is no noise of the machine: any run that moved is a miss.
    const shifts = results.map((r) => r.lhr.audits['cumulative-layout-shift']?.numericValue ?? 0);
    if (Math.max(...shifts) > CLS_BUDGET)
      misses.push(`${page.name}: layout shift ${shifts.map((v) => v.toFixed(3)).join(' ')} (budget ${CLS_BUDGET})`);
    const metric = (id: string) => audits[id]?.displayValue ?? '-';
    const share = mainThreadCpuShare(result.artifacts.Trace.traceEvents);
    // Under devtools throttling the trace's CPU is already slowed 4×.
    const cpu = startupCpu(result.artifacts.Trace.traceEvents, THROTTLING === 'devtools' ? 1 : 4);
    rows.push([
      page.name,
      ...Object.keys(BUDGETS).map((id) => String(score(id as keyof typeof BUDGETS))),
      metric('first-contentful-paint'),
      metric('largest-contentful-paint'),
      metric('total-blocking-time'),
      metric('cumulative-layout-shift'),
      metric('speed-index'),
      share === null ? '-' : `${Math.round(share * 100)}%`,
      cpu ? `${cpu.total.toFixed(0)} / ${cpu.blockingAt4x.toFixed(0)}` : '-',
      perfScores.join(' '),
      load,
    ]);
  }

  const header = [
    'page',
    'perf',
    'a11y',
    'best-pr.',
    'seo',
    'FCP',
    'LCP',
    'TBT',
    'CLS',
    'SI',
    'main CPU',
    'CPU ms / its blocking',
    'perf of each run',
    'load',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(
    `\nLighthouse (mobile preset, ${THROTTLING ?? 'simulate'} throttling), the median of up to ${RUNS} runs per page (fewer once the median's side of the performance budget is certain) — budgets: performance ≥ ${BUDGETS.performance}, accessibility ${BUDGETS.accessibility}, best practices ${BUDGETS['best-practices']}, SEO ≥ ${BUDGETS.seo}, layout shift ≤ ${CLS_BUDGET} in every run`,
  );
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  const shared = sharedFirstLoadKb();
  if (shared > SHARED_JS_BUDGET_KB)
    misses.push(`shared first-load JavaScript ${shared.toFixed(1)} kB > ${SHARED_JS_BUDGET_KB} kB`);
  console.log(`\nShared first-load JavaScript: ${shared.toFixed(1)} kB gzip (budget ${SHARED_JS_BUDGET_KB} kB)`);
  const own = Object.entries(pageFirstLoadKb()).map(([page, kb]) => `${page} ${kb.toFixed(1)}`);
  console.log(`Each page's own first-load JavaScript (kB gzip): ${own.join(', ')}`);
  console.log(`Reports: ${reportsDir}`);
  failed = misses.length > 0;
  console.log(failed ? '\nSome budgets are missed.' : '\nEvery budget is met.');
  for (const miss of misses) console.log(`  missed: ${miss}`);
} finally {
  await chrome?.kill();
  await server.stop();
}
process.exitCode = failed ? 1 : 0;
