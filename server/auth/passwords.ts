import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB memory, 2 iterations, 1 lane.
const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Runs at most `slots` tasks at once, the rest in arrival order. More argon2 runs than CPUs
 * finish no sooner, yet each holds its 19 MiB: a burst of sign-ins would grow the process by
 * 19 MiB per libuv thread (docs/benchmarks.md, "Memory").
 */
function limiter(slots: number) {
  const waiting: (() => void)[] = [];
  let running = 0;
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter, or free it.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}

const argon2Slot = limiter(availableParallelism());

export const hashPassword = (password: string): Promise<string> => argon2Slot(() => hash(password, OPTIONS));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2Slot(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;
/** Spends the same time as a real check, so a missing account cannot be told from a wrong password. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password-used-only-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
