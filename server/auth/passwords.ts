import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { limiter } from '../domain/limiter';

// One of OWASP's equivalent argon2id settings, the one with the least memory per hash: concurrent
// sign-ins must not push the server's peak RSS (docs/benchmarks/log/2026-11-23.md#argon2-at-12-mib-2026-11-23).
// Hashes made with an earlier setting still verify and are replaced at the next sign-in (`needsRehash`).
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 12288,
  timeCost: 3,
  parallelism: 1,
} as const;

// More argon2 runs than CPUs finish no sooner, yet each holds its 12 MiB: a burst of sign-ins
// would grow the process by 12 MiB per libuv thread (docs/benchmarks/log/2026-11-23.md, "Argon2 at 12 MiB").
const argon2 = limiter(availableParallelism());

export const hashPassword = (password: string): Promise<string> => argon2.run(() => hash(password, OPTIONS));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2.run(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

/**
 * True when a hash was made with other parameters than today's (e.g. 19 MiB / 2 before
 * 2026-11-23): the sign-in that has just verified the password re-hashes it, so old settings
 * and their memory use die out with use instead of staying for good.
 */
export function needsRehash(passwordHash: string): boolean {
  const made = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(passwordHash);
  return (
    made === null ||
    Number(made[1]) !== OPTIONS.memoryCost ||
    Number(made[2]) !== OPTIONS.timeCost ||
    Number(made[3]) !== OPTIONS.parallelism
  );
}

let dummyHash: Promise<string> | null = null;
/** Spends the same time as a real check, so a missing account cannot be told from a wrong password. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password-used-only-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
