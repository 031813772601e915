import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { resetRouter, router } from './support/router';
import { server } from './support/server';
import { FakeEventSource } from './support/eventSource';

vi.mock('next/router', () => ({ useRouter: () => router, default: router }));
globalThis.EventSource = FakeEventSource as unknown as typeof EventSource;

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  resetRouter();
  window.localStorage.clear();
  document.body.removeAttribute('style');
  vi.useRealTimers();
  FakeEventSource.instances = [];
});
afterAll(() => server.close());
