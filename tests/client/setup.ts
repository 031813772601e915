import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { resetRouter, router } from './support/router';
import { server } from './support/server';
import { FakeEventSource } from './support/eventSource';
import { setAppTexts } from '../../lib/i18n/appTexts';
import { pageIntl } from '../../lib/i18n/pageIntl';

// findBy* and waitFor wait for what must come; on a busy machine it comes late, not never.
configure({ asyncUtilTimeout: 10_000 });
const waitFor = vi.waitFor;
vi.waitFor = ((callback, options) =>
  waitFor(callback, typeof options === 'number' ? options : { timeout: 10_000, ...options })) as typeof vi.waitFor;

vi.mock('next/router', () => ({ useRouter: () => router, default: router }));
globalThis.EventSource = FakeEventSource as unknown as typeof EventSource;
// Thunks' texts (toasts) in English, as the app's first page sets them (renderWithProviders: another).
setAppTexts(pageIntl('en'));

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
