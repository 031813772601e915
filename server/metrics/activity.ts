/**
 * What this process did that `/metrics` counts and no cache or queue holds: sign-ins by result,
 * sign-ups, rate-limit refusals. Plain numbers the routes add to; read only when scraped.
 */
export type SignInResult = 'success' | 'two_factor_required' | 'failed' | 'locked' | 'error';

export interface Activity {
  readonly signIns: Record<SignInResult, number>;
  signUps: number;
  /** Refusals by the rate limit's name (`http/rateLimits.ts`). */
  readonly refusals: Map<string, number>;
  refused(limit: string): void;
}

export function activity(): Activity {
  const refusals = new Map<string, number>();
  return {
    signIns: { success: 0, two_factor_required: 0, failed: 0, locked: 0, error: 0 },
    signUps: 0,
    refusals,
    refused: (limit) => void refusals.set(limit, (refusals.get(limit) ?? 0) + 1),
  };
}
