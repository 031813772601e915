import { planSettings, postgresMixArg, summary, withoutFlags } from '../../bench/settings';
import { socketBytes, statementCounts } from '../../bench/requestCosts';
import { parseFlags } from '../../scripts/seed/args';

// Issue 72: one `--mix` run measures every setting its environment allows and says why it left
// any out; the cluster is held against one instance on PostgreSQL, whose figure it is handed.
describe('bench: the settings of one --mix run', () => {
  const postgres = 'postgres://postgres@127.0.0.1:5432/posts_bench';
  const redis = 'redis://127.0.0.1:6379/5';
  const plan = (env: Record<string, string | undefined>, argv = ['--mix']) =>
    planSettings(env, parseFlags(argv), '/data/bench');
  const skips = (env: Record<string, string | undefined>, argv?: string[]) =>
    Object.fromEntries(plan(env, argv).map((s) => [s.name, s.skipped]));

  it('runs all three with a PostgreSQL database and Redis', () => {
    expect(skips({ DATABASE_URL: postgres, REDIS_URL: redis })).toEqual({
      sqlite: null,
      postgres: null,
      cluster: null,
    });
  });

  it('says why PostgreSQL and the cluster are left out', () => {
    expect(skips({})).toEqual({
      sqlite: null,
      postgres: expect.stringContaining('DATABASE_URL'),
      cluster: expect.stringContaining('DATABASE_URL'),
    });
    expect(skips({ DATABASE_URL: postgres })).toEqual({
      sqlite: null,
      postgres: null,
      cluster: expect.stringContaining('REDIS_URL'),
    });
  });

  it("gives SQLite a cluster's Redis bus and PostgreSQL's defaults none", () => {
    const [sqlite, pg, cluster] = plan({ DATABASE_URL: postgres, REDIS_URL: redis }, ['--mix', '--cluster', '3']);
    expect(sqlite.env).toEqual({ DATABASE_URL: null, DATA_DIR: '/data/bench', REDIS_URL: redis });
    expect(pg.env).toEqual({ DATABASE_URL: postgres, DATA_DIR: '/data/bench/postgres', REDIS_URL: null });
    expect(cluster.env).toMatchObject({ DATABASE_URL: postgres, REDIS_URL: redis });
    expect(cluster.args).toEqual(['--cluster', '3']);
  });

  it('runs the settings asked for; --cluster alone is the cluster only, as before', () => {
    expect(plan({}, ['--mix', '--settings', 'postgres,sqlite']).map((s) => s.name)).toEqual(['sqlite', 'postgres']);
    expect(plan({}, ['--cluster', '2']).map((s) => s.name)).toEqual(['cluster']);
    expect(() => plan({}, ['--mix', '--settings', 'mysql'])).toThrow(/--settings takes sqlite, postgres, cluster/);
  });

  it("takes the settings' own flags out of the arguments a setting's run gets", () => {
    expect(
      withoutFlags(
        ['--mix', '--cluster', '2', '--readers', '50', '--settings=sqlite', '--only', 'mix'],
        ['cluster', 'settings'],
      ),
    ).toEqual(['--mix', '--readers', '50', '--only', 'mix']);
  });

  it("hands the cluster the PostgreSQL setting's mix ratios, by readers", () => {
    const row = (name: string, ratio: number | null) => ({
      name,
      kind: 'read' as const,
      rps: 1,
      p99: 1,
      cpuUs: 1,
      routeRps: 1,
      ratio,
      verdict: 'met',
      errors: 0,
    });
    const results = {
      rows: [
        row('community mix, 200 readers', 1.25),
        row('community mix, 2000 readers', 1.1),
        row("a profile's posts, alone, 200 readers", 2),
      ],
      peakRssMb: 300,
      rssTargetMb: 450,
      missed: [],
    };
    expect(postgresMixArg(results)).toBe('200=1.250,2000=1.100');
    expect(postgresMixArg(undefined)).toBeNull();
  });

  it('lists a skipped setting and its reason in the summary', () => {
    const settings = plan({});
    const text = summary(settings, new Map([['sqlite', 'its run failed (exit code 1; its output is above)']]));
    expect(text).toContain('postgres (one instance, PostgreSQL, the defaults (no Redis)): skipped: DATABASE_URL');
    expect(text).toContain('its run failed');
  });
});

describe('bench: what a request costs the database and Redis', () => {
  it("reads the statements' counts by kind and their time from the metrics", () => {
    const text = [
      'posts_db_statement_duration_seconds_bucket{le="0.001",kind="select"} 10',
      'posts_db_statement_duration_seconds_count{kind="select"} 12',
      'posts_db_statement_duration_seconds_sum{kind="select"} 0.25',
      'posts_db_statement_duration_seconds_count{kind="other"} 4',
      'posts_db_statement_duration_seconds_sum{kind="other"} 0.5',
    ].join('\n');
    expect(statementCounts(text)).toEqual({ counts: { select: 12, other: 4 }, seconds: 0.75 });
  });

  it("sums the bytes of the instances' sockets to one port, and no one else's", () => {
    const ss = [
      '0 0 127.0.0.1:47508 127.0.0.1:5432 users:(("node",pid=11,fd=3))',
      '\t cubic bytes_sent:100 bytes_acked:101 bytes_received:400 segs_out:6',
      '0 0 127.0.0.1:47510 127.0.0.1:5432 users:(("MainThread",pid=12,fd=3))',
      '\t cubic bytes_sent:10 bytes_acked:11 bytes_received:40 segs_out:6',
      '0 0 127.0.0.1:47512 127.0.0.1:5432 users:(("psql",pid=99,fd=3))',
      '\t cubic bytes_sent:1000 bytes_acked:1001 bytes_received:4000 segs_out:6',
    ].join('\n');
    expect(socketBytes(ss, [11, 12], 5432)).toEqual({ sent: 110, received: 440 });
  });
});
