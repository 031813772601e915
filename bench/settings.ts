/**
 * `npm run bench -- --mix`: the community's mix in each of issue 72's settings the environment
 * allows, one after the other, each in a run of its own (`run.ts --setting <name>`: its own
 * servers, its own Next.js route in turns with its rows), then one summary of their rows against
 * their targets (also written to $DATA_DIR/bench-settings.md).
 *
 * - `sqlite`: one instance on SQLite (DATA_DIR) with the settings a cluster would use: the Redis
 *   bus on (REDIS_URL), the caches' default times (docs/benchmarks.md, "Three settings").
 * - `postgres`: one instance on PostgreSQL (DATABASE_URL, seeded with D1) with the defaults: no Redis.
 * - `cluster`: `npm run cluster`'s pieces (DATABASE_URL and REDIS_URL), its mix held at 1.3× the
 *   `postgres` setting's (both in multiples of the route in their own turns).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count } from '../scripts/seed/args';
import { type RequestCosts, describeCosts } from './requestCosts';

/** A row as the summary shows it: its figures against its target (written by each setting's run). */
export interface RowSummary {
  name: string;
  kind: 'reference' | 'read' | 'write';
  rps: number;
  p99: number;
  cpuUs: number | null;
  /** The Next.js route's req/s in the same turns, and the row's multiple of it. */
  routeRps: number | null;
  ratio: number | null;
  /** 'met', 'missed: …', or '' for a row without a target. */
  verdict: string;
  errors: number;
  costs?: RequestCosts;
}

/** What a setting's run writes for the summary (`--results-json`). */
export interface SettingResults {
  rows: RowSummary[];
  peakRssMb: number;
  rssTargetMb: number;
  missed: string[];
}

export const SETTING_NAMES = ['sqlite', 'postgres', 'cluster'] as const;
type SettingName = (typeof SETTING_NAMES)[number];

export interface Setting {
  name: SettingName;
  title: string;
  targets: string;
  /** Variables set (a string) or removed (null) for its run. */
  env: Record<string, string | null>;
  args: string[];
  /** Why it does not run, when it cannot. */
  skipped: string | null;
}

const isPostgres = (url: string | undefined) => !!url && /^postgres(ql)?:\/\//.test(url);

/** The settings the flags ask for, each with what it needs from the environment or why it is skipped. */
export function planSettings(
  env: Record<string, string | undefined>,
  flags: Map<string, string>,
  dataDir: string,
): Setting[] {
  const asked = flags.has('settings')
    ? flags.get('settings')!.split(',')
    : flags.has('cluster') && !flags.has('mix')
      ? ['cluster']
      : [...SETTING_NAMES];
  const unknown = asked.filter((name) => !(SETTING_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`--settings takes ${SETTING_NAMES.join(', ')}; not ${unknown.join(', ')}`);
  const redisUrl = env.REDIS_URL || null;
  const databaseUrl = isPostgres(env.DATABASE_URL) ? env.DATABASE_URL! : null;
  const noDatabase = 'DATABASE_URL does not name a PostgreSQL database seeded with D1';
  const all: Setting[] = [
    {
      name: 'sqlite',
      title: redisUrl
        ? "one instance, SQLite, a cluster's settings (the Redis bus on)"
        : "one instance, SQLite, without REDIS_URL: the bus off, not quite a cluster's settings",
      targets:
        "the mix ≥ 1.5× the route, p99 ≤ 50 ms; 2,000 readers ≥ 1.5×, peak RSS ≤ 450 MB; a profile's posts alone ≥ 2×",
      env: { DATABASE_URL: null, DATA_DIR: dataDir, REDIS_URL: redisUrl },
      args: [],
      skipped: null,
    },
    {
      name: 'postgres',
      title: 'one instance, PostgreSQL, the defaults (no Redis)',
      targets: "the mix ≥ 1.2× the route; a profile's posts alone ≥ 2×",
      env: { DATABASE_URL: databaseUrl, DATA_DIR: path.join(dataDir, 'postgres'), REDIS_URL: null },
      args: [],
      skipped: databaseUrl ? null : noDatabase,
    },
    {
      name: 'cluster',
      title: `the cluster: ${count(flags, 'cluster', 2)} instances, nginx, PostgreSQL, Redis, S3`,
      targets: 'the mix ≥ 1.3× one instance on PostgreSQL (each in multiples of the route in its own turns)',
      env: { DATABASE_URL: databaseUrl, DATA_DIR: path.join(dataDir, 'cluster'), REDIS_URL: redisUrl },
      args: ['--cluster', String(count(flags, 'cluster', 2))],
      skipped: !databaseUrl ? noDatabase : !redisUrl ? 'REDIS_URL is not set' : null,
    },
  ];
  return all.filter((setting) => asked.includes(setting.name));
}

/** The arguments without the named flags (`--name value` or `--name=value`), as `parseFlags` reads them. */
export function withoutFlags(argv: string[], names: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2).split('=')[0] : null;
    if (name === null || !names.includes(name)) kept.push(argv[i]);
    else if (!argv[i].includes('=') && i + 1 < argv.length && !argv[i + 1].startsWith('--')) i++;
  }
  return kept;
}

/** The `postgres` setting's mix rows as `--postgres-mix`: `200=1.25,2000=1.10` (readers = multiple of the route). */
export function postgresMixArg(results: SettingResults | undefined): string | null {
  const pairs = (results?.rows ?? []).flatMap((row) => {
    const match = /^community mix, (\d+) readers$/.exec(row.name);
    return match && row.ratio !== null ? [`${match[1]}=${row.ratio.toFixed(3)}`] : [];
  });
  return pairs.length > 0 ? pairs.join(',') : null;
}

function runSetting(setting: Setting, argv: string[], extra: string[], resultsFile: string): Promise<number | null> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(setting.env))
    if (value === null) delete env[name];
    else env[name] = value;
  const args = [
    '--import',
    'tsx',
    path.join(import.meta.dirname, 'run.ts'),
    ...withoutFlags(argv, ['settings', 'cluster', 'setting', 'results-json', 'postgres-mix']),
    ...setting.args,
    ...extra,
    '--setting',
    setting.name,
    '--results-json',
    resultsFile,
  ];
  const child = spawn(process.execPath, args, { env, stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

const fixed = (value: number | null, digits = 0) => (value === null ? '–' : value.toFixed(digits));

/** The summary of every setting's rows, with the skipped and failed ones and the cluster's costs. */
export function summary(settings: Setting[], results: Map<SettingName, SettingResults | string>): string {
  const lines = [
    "## Issue 72's settings",
    '',
    '| Setting | Row | req/s | Next API req/s, same turns | ÷ Next API | p99 ms | server CPU µs/req | errors | target |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  const notes: string[] = [];
  for (const setting of settings) {
    const outcome = setting.skipped ?? results.get(setting.name) ?? 'not run';
    if (typeof outcome === 'string') {
      notes.push(`- ${setting.name} (${setting.title}): ${setting.skipped ? 'skipped: ' : ''}${outcome}.`);
      continue;
    }
    for (const row of outcome.rows.filter((r) => r.kind !== 'reference'))
      lines.push(
        `| ${setting.name} | ${row.name} | ${fixed(row.rps)} | ${fixed(row.routeRps)} | ${fixed(row.ratio, 2)} | ${fixed(row.p99, 1)} | ${fixed(row.cpuUs)} | ${row.errors} | ${row.verdict} |`,
      );
    const rssMet = outcome.peakRssMb < outcome.rssTargetMb;
    notes.push(
      `- ${setting.name} (${setting.title}); targets: ${setting.targets}. Peak RSS ${outcome.peakRssMb.toFixed(0)} MB ` +
        `(< ${outcome.rssTargetMb} MB: ${rssMet ? 'met' : 'missed'}); ${outcome.missed.length} target(s) missed.`,
    );
    for (const row of outcome.rows.filter((r) => r.costs && /^community mix/.test(r.name)))
      notes.push(`  - ${row.name}, a request: ${describeCosts(row.costs!)}`);
  }
  return [...lines, '', ...notes].join('\n');
}

/** Runs each setting the flags ask for and the environment allows, then prints their summary. */
export async function runSettings(argv: string[], flags: Map<string, string>): Promise<void> {
  const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(import.meta.dirname, '..', 'data', 'bench'));
  const settings = planSettings(process.env, flags, dataDir);
  for (const setting of settings)
    console.log(`Setting ${setting.name}: ${setting.skipped ? `skipped: ${setting.skipped}` : setting.title}`);
  const results = new Map<SettingName, SettingResults | string>();
  for (const setting of settings.filter((s) => !s.skipped)) {
    console.log(`\n# Setting ${setting.name}: ${setting.title}\nTargets: ${setting.targets}\n`);
    const file = path.join(os.tmpdir(), `posts-bench-${setting.name}-${process.pid}.json`);
    rmSync(file, { force: true });
    const postgres = results.get('postgres');
    const versus = setting.name === 'cluster' && typeof postgres === 'object' ? postgresMixArg(postgres) : null;
    const code = await runSetting(setting, argv, versus ? ['--postgres-mix', versus] : [], file);
    const ran = code === 0 && existsSync(file);
    if (!ran) process.exitCode = 1;
    results.set(
      setting.name,
      ran
        ? (JSON.parse(readFileSync(file, 'utf8')) as SettingResults)
        : `its run failed (exit code ${code}; its output is above)`,
    );
    rmSync(file, { force: true });
  }
  const text = summary(settings, results);
  console.log(`\n${text}`);
  const out = path.join(dataDir, 'bench-settings.md');
  writeFileSync(out, `${new Date().toISOString()}\n\n${text}\n`);
  console.log(`\n(also written to ${out})`);
}
