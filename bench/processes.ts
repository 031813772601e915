/** Child servers of the benchmark: start, wait until they answer, sample memory, stop. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface Server {
  name: string;
  child: ChildProcess;
  /** Recent output, shown when the server fails to start. */
  log(): string;
}

export function startServer(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Server {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { name, child, log: () => output };
}

export async function waitUntilUp(server: Server, url: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null)
      throw new Error(`${server.name} exited with ${server.child.exitCode}:\n${server.log()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${server.name} did not answer ${url} in time:\n${server.log()}`);
}

export async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory of a process, in bytes: now (VmRSS) and its lifetime peak (VmHWM). */
export function memoryOf(pid: number): { rss: number; peak: number; anon: number; file: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    // RssAnon is the process's own memory (heaps); RssFile is mapped files (code, shared libs).
    return { rss: kb('VmRSS'), peak: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile') };
  } catch {
    return null;
  }
}

/**
 * A process's command name and CPU times from `/proc/<pid>/stat`, in seconds: its own (user +
 * system) and its reaped children's; null when the process is gone.
 */
function cpuTimesOf(pid: number | string): { command: string; own: number; children: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces; after it, utime, stime, cutime and
    // cstime are the 12th to 15th fields.
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return {
      command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      own: (fields[11] + fields[12]) / CLOCK_TICKS_PER_SECOND,
      children: (fields[13] + fields[14]) / CLOCK_TICKS_PER_SECOND,
    };
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) a process has used so far, in seconds. Divided by the requests of a
 * row it gives the server's own cost per request, which other load on a shared machine does not
 * change the way it changes req/s.
 */
export function cpuSecondsOf(pid: number): number | null {
  return cpuTimesOf(pid)?.own ?? null;
}

/**
 * CPU time of every process named `command` (e.g. `postgres`: the postmaster and its backends),
 * in seconds, including exited children the parent has reaped, so a backend that ends between two
 * readings does not take its time with it. Null when none is visible (a database on another
 * machine).
 */
export function cpuSecondsOfCommand(command: string): number | null {
  let total: number | null = null;
  for (const entry of readdirSync('/proc')) {
    // A process that ended while the list was read gives null.
    const times = /^\d+$/.test(entry) ? cpuTimesOf(entry) : null;
    if (times?.command === command) total = (total ?? 0) + times.own + times.children;
  }
  return total;
}

/** USER_HZ: 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Samples a process's RSS every 200 ms; `peak()` is the highest seen (or the kernel's VmHWM). */
export function watchMemory(pid: number) {
  let peak = 0;
  const sample = () => {
    const memory = memoryOf(pid);
    if (memory) peak = Math.max(peak, memory.rss, memory.peak);
  };
  const timer = setInterval(sample, 200);
  timer.unref();
  return {
    peak: () => {
      sample();
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}
