/** Child processes of the cluster: their output, their end, free ports and health checks. */
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';

/** The terminal (each line prefixed with its process's name), or one log file for all. */
export type Output = { terminal: true } | { file: WriteStream };

export const logFile = (file: string): Output => ({ file: createWriteStream(file, { flags: 'a' }) });

export function pipeOutput(child: ChildProcess, name: string, output: Output): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => {
      if ('file' in output) output.file.write(`[${name}] ${line}\n`);
      else console.log(`[${name}] ${line}`);
    });
  }
}

/** Resolves once `child` has ended; after `killAfterMs` it is killed (SIGKILL) first. */
export function exited(child: ChildProcess, killAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Health {
  status: string;
  database: string;
  instance: string;
  feedIndex: string;
}

/** `GET /api/instance/health` at `baseUrl`, or null when nothing answers (yet). */
export async function health(baseUrl: string): Promise<Health | null> {
  try {
    const res = await fetch(`${baseUrl}/api/instance/health`, { signal: AbortSignal.timeout(5_000) });
    return res.ok ? ((await res.json()) as Health) : null;
  } catch {
    return null;
  }
}

/** Waits until `baseUrl` answers its health check; fails when `alive` says the process died, or after `timeoutMs`. */
export async function waitForHealth(baseUrl: string, alive: () => boolean, timeoutMs = 180_000): Promise<Health> {
  const started = Date.now();
  for (;;) {
    const answer = await health(baseUrl);
    if (answer) return answer;
    if (!alive()) throw new Error(`${baseUrl} exited before answering its health check`);
    if (Date.now() - started > timeoutMs) throw new Error(`${baseUrl} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
