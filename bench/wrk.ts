/**
 * Runs the load generator in its own process and parses its report. wrk (apt) is preferred: it is
 * a C program, so the load generator costs the shared CPUs far less than a Node one would.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx/3xx answers plus socket errors: a row with errors measured something else. */
  errors: number;
  /** A sequence's requests sent (past its length, some were sent twice). */
  sent?: number;
}

/** One request of a mix: drawn per request, sent as a reader picked per request (or as the writer). */
export interface MixEntry {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  /** A JSON body. */
  body?: string;
  /** Sent as the mix's writer, not a random reader. */
  writer?: boolean;
}

export interface LoadRequest {
  method?: 'GET' | 'POST' | 'PATCH';
  /** Paths picked at random per request (one entry = a fixed path). */
  paths: string[];
  headers?: Record<string, string>;
  body?: string;
  /**
   * False: no held first request. For a server so cheap that wrk is its bottleneck (node:http):
   * the `delay()` hook runs for every request, a timer and two epoll changes in wrk each time.
   */
  holdFirst?: false;
  /**
   * A community's mix instead of `paths`/`headers`/`body`: each request is a random entry sent with
   * a random reader's cookie (`paths` then names the row's first entry, for the check before it).
   */
  mix?: { entries: MixEntry[]; readerCookies: string[]; writerCookie: string };
  /**
   * Requests sent in order, each once (signed activities: a replay is not the same work), one wrk
   * thread; the run must end before they do (wrk prints `sequence sent N of M`, parsed as `sent`).
   */
  sequence?: SequenceEntry[];
}

export interface SequenceEntry {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: string;
}

export function haveWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

const luaString = (value: string) => JSON.stringify(value); // JSON escapes are valid Lua escapes here

/**
 * How long each connection holds its first request back: long enough for the server to accept
 * every connection before any of them keeps it busy. Node accepts one connection per event-loop
 * iteration, so when 50 connect at once and each sends at once, the last one is accepted only
 * after ~49 iterations of growing work (~300 ms on D1's lists), and wrk's coordinated-omission
 * correction turns those few slow first answers into ~1% of its samples: p99 measured the
 * start-up ramp of each run, not the service (docs/benchmarks/method.md, "Method").
 */
const HOLD_FIRST_MS = 20;

/**
 * A wrk Lua script: fixed method, headers and body. One path is a static request (wrk formats it
 * once); several are picked at random per request through a Lua `request()` call, which costs wrk
 * CPU on every request, on the cores the server shares (docs/benchmarks/method.md, "Method").
 */
export function luaScript(request: LoadRequest, connectionsPerThread: number): string {
  const headers = Object.entries(request.headers ?? {}).map(
    ([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}`,
  );
  const paths = request.sequence
    ? sequenceLua(request.sequence)
    : request.mix
      ? mixLua(request.mix)
      : request.paths.length === 1
        ? [`wrk.path = ${luaString(request.paths[0])}`]
        : [
            `local paths = { ${request.paths.map(luaString).join(', ')} }`,
            // Seed per thread so that threads do not walk the same sequence.
            'function setup(thread) thread:set("seed", math.random(1, 1000000)) end',
            'function init(args) math.randomseed(seed or os.time()) end',
            'request = function() return wrk.format(nil, paths[math.random(#paths)]) end',
          ];
  return [
    `wrk.method = ${luaString(request.method ?? 'GET')}`,
    ...headers,
    request.body !== undefined ? `wrk.body = ${luaString(request.body)}` : '',
    ...paths,
    // Each thread's Lua state sees its own connections' requests: the first one of each waits.
    ...(request.holdFirst === false
      ? []
      : [
          `local started = 0`,
          `function delay() started = started + 1; if started <= ${connectionsPerThread} then return ${HOLD_FIRST_MS} end; return 0 end`,
        ]),
  ].join('\n');
}

/**
 * The mix as Lua: entries and cookies as tables, one `wrk.format` per request (its cost is wrk's, on
 * the shared cores, as for any row with several paths).
 */
function mixLua({ entries, readerCookies, writerCookie }: NonNullable<LoadRequest['mix']>): string[] {
  const entry = (e: MixEntry) =>
    `{ ${luaString(e.method)}, ${luaString(e.path)}, ${e.body === undefined ? 'nil' : luaString(e.body)}, ${e.writer ? 'true' : 'false'} }`;
  return [
    'local entries = {}',
    ...luaChunks('entries', entries.map(entry)),
    'local readers = {}',
    ...luaChunks('readers', readerCookies.map(luaString)),
    `local writer = ${luaString(writerCookie)}`,
    'function setup(thread) thread:set("seed", math.random(1, 1000000)) end',
    'function init(args) math.randomseed(seed or os.time()) end',
    'request = function()',
    '  local e = entries[math.random(#entries)]',
    '  local headers = { Cookie = e[4] and writer or readers[math.random(#readers)] }',
    '  if e[3] then headers["Content-Type"] = "application/json" end',
    '  return wrk.format(e[1], e[2], headers, e[3])',
    'end',
  ];
}

/** The sequence as Lua: one entry per request, in order; past the last, the first again (counted). */
function sequenceLua(entries: SequenceEntry[]): string[] {
  const entry = (e: SequenceEntry) =>
    `{ ${luaString(e.method)}, ${luaString(e.path)}, { ${Object.entries(e.headers)
      .map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`)
      .join(', ')} }, ${luaString(e.body)} }`;
  return [
    'local entries = {}',
    ...luaChunks('entries', entries.map(entry)),
    'sent = 0',
    'local threads = {}',
    'function setup(thread) table.insert(threads, thread) end',
    'request = function()',
    '  sent = sent + 1',
    '  local e = entries[((sent - 1) % #entries) + 1]',
    '  return wrk.format(e[1], e[2], e[3], e[4])',
    'end',
    'function done(summary, latency, requests)',
    '  local total = 0',
    '  for _, thread in ipairs(threads) do total = total + thread:get("sent") end',
    `  io.write(string.format("sequence sent %d of %d\\n", total, ${entries.length}))`,
    'end',
  ];
}

/** `items` appended to the Lua table `name` in functions of 1,000: LuaJIT limits one function's constants. */
const luaChunks = (name: string, items: string[]) =>
  Array.from(
    { length: Math.ceil(items.length / 1000) },
    (_, i) =>
      `;(function() local t = ${name}; ${items
        .slice(i * 1000, (i + 1) * 1000)
        .map((item) => `t[#t + 1] = ${item}`)
        .join('; ')} end)()`,
  );

/** wrk prints durations as 812.00us, 1.23ms, 2.01s or 1.00m; returns milliseconds. */
function parseDuration(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!match) throw new Error(`Unreadable wrk duration "${text}"`);
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2] as 'us' | 'ms' | 's' | 'm'];
  return Number(match[1]) * factor;
}

export function parseWrk(output: string): LoadResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const total = /(\d+) requests in/.exec(output);
  const p50 = /\s50%\s+([\d.]+\w+)/.exec(output);
  const p99 = /\s99%\s+([\d.]+\w+)/.exec(output);
  if (!rps || !total || !p50 || !p99) throw new Error(`Unreadable wrk output:\n${output}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const sent = /sequence sent (\d+) of/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requests: Number(total[1]),
    rps: Number(rps[1]),
    p50: parseDuration(p50[1]),
    p99: parseDuration(p99[1]),
    errors: (non2xx ? Number(non2xx[1]) : 0) + socketErrors,
    ...(sent ? { sent: Number(sent[1]) } : {}),
  };
}

/**
 * One result from segments of the same request measured apart (alternating with another row):
 * requests and errors add up, req/s is over the segments' summed time, p50 the requests-weighted
 * mean of the segments' medians and p99 the worst segment's (wrk reports no histogram to merge,
 * so p99 errs high, never low).
 */
export function combineResults(parts: LoadResult[]): LoadResult {
  if (parts.length === 1) return parts[0];
  const requests = parts.reduce((sum, part) => sum + part.requests, 0);
  const seconds = parts.reduce((sum, part) => sum + (part.rps > 0 ? part.requests / part.rps : 0), 0);
  return {
    requests,
    rps: seconds > 0 ? requests / seconds : 0,
    p50: requests > 0 ? parts.reduce((sum, part) => sum + part.p50 * part.requests, 0) / requests : 0,
    p99: Math.max(...parts.map((part) => part.p99)),
    errors: parts.reduce((sum, part) => sum + part.errors, 0),
  };
}

export interface LoadOptions {
  baseUrl: string;
  connections: number;
  threads: number;
  seconds: number;
  scriptDir: string;
  /**
   * Plain `wrk -t1 -c<connections> -d<seconds>s <url>`: no script (no held-back start, no Lua per
   * request). What anyone checking a reference by hand runs (`--latency` only prints more); GET of one path.
   */
  plain?: boolean;
}

export function runWrk(request: LoadRequest, options: LoadOptions, name: string): Promise<LoadResult> {
  const common = ['-c', String(options.connections), '-d', `${options.seconds}s`, '--timeout', '10s'];
  let args: string[];
  if (options.plain) {
    if (request.paths.length !== 1 || request.method || request.headers || request.body !== undefined)
      throw new Error('A plain wrk run takes a GET of one path, nothing else');
    args = ['-t', '1', ...common, '--latency', options.baseUrl + request.paths[0]];
  } else {
    const script = path.join(options.scriptDir, `${name.replace(/[^a-z0-9]+/gi, '-')}.lua`);
    writeFileSync(script, luaScript(request, Math.ceil(options.connections / options.threads)));
    args = ['-t', String(options.threads), ...common, '--latency', '-s', script, options.baseUrl];
  }
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`wrk exited with ${code}:\n${output}`));
      else {
        try {
          const result = parseWrk(output);
          // wrk's req/s counts the held-back start as running time: take it out.
          const held = options.plain || request.holdFirst === false ? 0 : HOLD_FIRST_MS / 1000;
          const seconds = result.requests / result.rps - held;
          resolve(seconds > 0 ? { ...result, rps: result.requests / seconds } : result);
        } catch (error) {
          reject(error);
        }
      }
    });
  });
}
