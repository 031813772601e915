import type { NextRouter } from 'next/router';
import { afterSignIn, isServerPath } from '../lib/nextPath';
import { loadServerPage } from './navigation';

/**
 * Once signed in: to the page the visitor was sent to sign in from (`next`, when it is a safe
 * same-site path: lib/nextPath.ts), else home. Replaces the sign-in page in the history.
 */
export function openAfterSignIn(router: Pick<NextRouter, 'replace'>, next: unknown): void {
  const to = afterSignIn(next);
  if (isServerPath(to)) loadServerPage(to);
  else void router.replace(to);
}
