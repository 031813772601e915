/** Starts the production server (optionally building first) on a fresh data folder and a free port. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/cluster/processes';
import { buildPages } from '../../server/pages/buildPages';

const root = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  stop(): Promise<void>;
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/instance`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer at ${url} within ${timeoutMs} ms`);
}

/**
 * `env` adds to or overrides the server's environment (the S3 suite's gateway, the browser suite's
 * SMTP_URL). `federated`: its own address as PUBLIC_URL, loopback allowed, and a SQLite database
 * of its own in its data folder, so two of them federate with each other (tests/e2e/federation.e2e.ts).
 */
export async function startServer({
  build,
  env = {},
  federated = false,
}: {
  build: boolean;
  env?: Record<string, string>;
  federated?: boolean;
}): Promise<RunningServer> {
  if (build) {
    if (!buildPages()) throw new Error('next build failed');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'posts-e2e-'));
  const baseURL = `http://127.0.0.1:${port}`;
  // As `npm start` runs it.
  const child = spawn('sh', ['scripts/start.sh'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE: process.execPath,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Journeys sign up and sign in many times from one IP.
      RATE_LIMIT_AUTH_PER_IP: '10000',
      RATE_LIMIT_AUTH_PER_ACCOUNT: '10000',
      RATE_LIMIT_UPLOADS_PER_USER: '10000',
      RATE_LIMIT_WRITES_PER_USER: '10000',
      CONTACT_EMAIL: 'team@posts.example',
      RATE_LIMIT_MAILS_PER_ADDRESS: '10000',
      // The suite runs beside other work: a slow loop must not turn its requests into 503s.
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...(federated && {
        PUBLIC_URL: baseURL,
        FEDERATION_ALLOW_PRIVATE: 'true',
        DATABASE_URL: `sqlite:${path.join(dataDir, 'posts.db')}`,
        REDIS_URL: '',
      }),
      ...env,
    },
  });
  await waitForServer(baseURL, child);
  return {
    baseURL,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
