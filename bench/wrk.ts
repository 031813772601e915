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
}

export interface LoadRequest {
  method?: 'GET' | 'POST' | 'PATCH';
  /** Paths picked at random per request (one entry = a fixed path). */
  paths: string[];
  headers?: Record<string, string>;
  body?: string;
}

export function haveWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

const luaString = (value: string) => JSON.stringify(value); // JSON escapes are valid Lua escapes here

/** A wrk Lua script: fixed method, headers and body; a random path of the list per request. */
function luaScript(request: LoadRequest): string {
  const headers = Object.entries(request.headers ?? {}).map(([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}`);
  return [
    `wrk.method = ${luaString(request.method ?? 'GET')}`,
    ...headers,
    request.body !== undefined ? `wrk.body = ${luaString(request.body)}` : '',
    `local paths = { ${request.paths.map(luaString).join(', ')} }`,
    // Seed per thread so the two threads do not walk the same sequence.
    'function setup(thread) thread:set("seed", math.random(1, 1000000)) end',
    'function init(args) math.randomseed(seed or os.time()) end',
    'request = function() return wrk.format(nil, paths[math.random(#paths)]) end',
  ].join('\n');
}

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
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requests: Number(total[1]), rps: Number(rps[1]), p50: parseDuration(p50[1]), p99: parseDuration(p99[1]),
    errors: (non2xx ? Number(non2xx[1]) : 0) + socketErrors,
  };
}

export interface LoadOptions {
  baseUrl: string;
  connections: number;
  threads: number;
  seconds: number;
  scriptDir: string;
}

export function runWrk(request: LoadRequest, options: LoadOptions, name: string): Promise<LoadResult> {
  const script = path.join(options.scriptDir, `${name.replace(/[^a-z0-9]+/gi, '-')}.lua`);
  writeFileSync(script, luaScript(request));
  const args = ['-t', String(options.threads), '-c', String(options.connections), '-d', `${options.seconds}s`,
    '--timeout', '10s', '--latency', '-s', script, options.baseUrl];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`wrk exited with ${code}:\n${output}`));
      else {
        try {
          resolve(parseWrk(output));
        } catch (error) {
          reject(error);
        }
      }
    });
  });
}
