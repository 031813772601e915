/**
 * Where the cluster's media go: the S3 bucket the environment names (`S3_BUCKET` and the rest), or
 * else a RADOS Gateway on this machine (scripts/services/s3.sh), started for the run and stopped
 * after it unless it was already running.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const script = path.join(root, 'scripts/services/s3.sh');

export interface S3Media {
  /** The variables to give the instances (empty when the environment already has them). */
  env: Record<string, string>;
  stop(): void;
}

const run = (command: string, env: NodeJS.ProcessEnv) =>
  spawnSync('bash', [script, command], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

/** What `eval "$(s3.sh env)"` would export (`export A=1 B=2`), evaluated by bash itself. */
function gatewayVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const printed = run('env', env);
  if (printed.status !== 0) throw new Error('scripts/services/s3.sh env failed');
  const exported = (script: string) => {
    const result = spawnSync('bash', ['-c', 'eval "$1" && env -0', '_', script], {
      encoding: 'utf8',
      // A bare environment: what the script's output adds is then all that differs.
      env: { PATH: env.PATH, NODE_ENV: env.NODE_ENV },
    });
    if (result.status !== 0) throw new Error('The output of scripts/services/s3.sh env is not valid shell');
    return new Map(
      result.stdout
        .split('\0')
        .filter(Boolean)
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
    );
  };
  const before = exported('');
  return Object.fromEntries([...exported(printed.stdout)].filter(([name, value]) => before.get(name) !== value));
}

export function s3Media(env: NodeJS.ProcessEnv, say: (line: string) => void): S3Media {
  if (env.S3_BUCKET) return { env: {}, stop() {} };
  const wasRunning = run('status', env).status === 0;
  if (!wasRunning) {
    say('S3_BUCKET is not set: starting a local S3 server (Ceph RADOS Gateway, scripts/services/s3.sh)');
    if (run('start', env).status !== 0) throw new Error('scripts/services/s3.sh start failed');
  }
  return {
    env: gatewayVariables(env),
    stop() {
      if (!wasRunning) run('stop', env);
    },
  };
}
