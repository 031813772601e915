/**
 * The local S3 server's settings (`scripts/services/s3.sh env`) for the tests that use it: null
 * without TEST_S3; with TEST_S3=1 (`.ci/run` sets it) a gateway that is not running is an error.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/services/s3.sh');

/** `export A=1 B=2`, as the script prints it, as an object. */
export function parseExports(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .replace(/^export\s+/gm, '')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

export function s3GatewayEnv(): Record<string, string> | null {
  if (!process.env.TEST_S3) return null;
  return parseExports(execFileSync(SCRIPT, ['env'], { encoding: 'utf8' }));
}
