import type { NextRouter } from 'next/router';
import { afterSignIn, isServerPath } from '../lib/nextPath';

/** A full page load of a path the Next.js router does not serve (the OAuth consent page, rendered by the server). */
export function loadServerPage(path: string): void {
  window.location.assign(path);
}

/**
 * Once signed in: to the page the visitor was sent to sign in from (`next`, when it is a safe
 * same-site path: lib/nextPath.ts), else home. Replaces the sign-in page in the history.
 */
export function openAfterSignIn(router: Pick<NextRouter, 'replace'>, next: unknown): void {
  const to = afterSignIn(next);
  if (isServerPath(to)) loadServerPage(to);
  else void router.replace(to);
}
