import { vi } from 'vitest';

/** A stand-in for the Next.js router that tests can point at any route. */
export const router = {
  pathname: '/home',
  asPath: '/home',
  query: {} as Record<string, string>,
  isReady: true,
  push: vi.fn(async () => true),
  replace: vi.fn(async () => true),
  prefetch: vi.fn(async () => undefined),
  events: { on: vi.fn(), off: vi.fn(), emit: vi.fn() },
  beforePopState: vi.fn(),
};

export function setRoute(pathname: string, asPath = pathname, query: Record<string, string> = {}) {
  router.pathname = pathname;
  router.asPath = asPath;
  router.query = query;
}

export function resetRouter() {
  setRoute('/home');
  router.push.mockClear();
  router.replace.mockClear();
}
