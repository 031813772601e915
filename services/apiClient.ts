/**
 * The one HTTP client of the app: an axios instance (the design card's) that sends credentials
 * (the session lives in HttpOnly cookies) and, when a request fails with 401, makes one refresh
 * call — shared by every request failing at that moment — and retries each of them once (spec
 * section 8). Upload progress comes from axios's `onUploadProgress`. A refresh the server refuses
 * (401: the session was revoked or has expired) is the one place the app learns that the session is
 * lost: it tells the handler set with `onSessionLost` (the store's), once per failed refresh however
 * many requests were waiting for it; the callers get the error as any other.
 *
 * axios is not part of every page's first load: `import('axios')` makes it a chunk of its own,
 * fetched by the first API call or before it (`preloadApiClient`: AppShell calls it
 * once a likely member's page is idle, or when a visitor starts filling a form). `apiClient` has the
 * instance's methods and hands each call to the instance once it is there. Why and the figures:
 * docs/frontend.md.
 */
import type { AxiosError, AxiosInstance, AxiosRequestConfig, AxiosResponse } from 'axios';
import { nextLink } from '../lib/links';
import { waitInWords } from '../lib/retryAfter';
import { offlineText, rateLimitText, refusalText, unknownText } from './errorTexts';

export const REFRESH_PATH = '/api/auth/refresh';

/** The auth calls never trigger the refresh-and-retry rule (API.md). */
const AUTH_PATHS = ['/api/auth/signup', '/api/auth/login', '/api/auth/getLoggedUser', REFRESH_PATH, '/api/auth/logout'];

export function isAuthCall(url: string | undefined): boolean {
  if (!url) return false;
  const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
  return AUTH_PATHS.includes(path);
}

type SessionLostHandler = () => void;
let sessionLostHandler: SessionLostHandler | null = null;

/**
 * Sets what happens when a refresh is refused (the store built last in this page sets it: one per
 * page in the browser). Returns a function that removes it again, if it is still the one set.
 */
export function onSessionLost(handler: SessionLostHandler): () => void {
  sessionLostHandler = handler;
  return () => {
    if (sessionLostHandler === handler) sessionLostHandler = null;
  };
}

/** A refresh refused with 401 means the session is gone; a network error or a 429 does not. */
function refreshRefused(error: unknown): boolean {
  return (error as { response?: { status?: unknown } } | null)?.response?.status === 401;
}

/** A request config once retried after a refresh: it is never retried again. */
interface RetriedConfig extends AxiosRequestConfig {
  _retried?: boolean;
}

/**
 * Builds the app's axios instance: `withCredentials`, the base URL, the early reads answered by
 * its adapter, and the 401 interceptor. Loads axios (once: the module cache keeps it).
 */
export async function createApiClient(
  baseURL = '',
): Promise<{ client: AxiosInstance; refreshSession: () => Promise<void> }> {
  // axios and the early-reads adapter arrive together, after the page's first load.
  const [{ default: axios }, { withEarlyReads }] = await Promise.all([import('axios'), import('./earlyReads')]);
  const adapter = withEarlyReads(axios, axios.getAdapter(axios.defaults.adapter), (config) => client.getUri(config));
  const client = axios.create({ baseURL, withCredentials: true, adapter });

  let refreshing: Promise<void> | null = null;
  const refreshSession = (): Promise<void> => {
    refreshing ??= client
      .post(REFRESH_PATH)
      .then(
        () => undefined,
        (error: unknown) => {
          // Once per refresh: every request waiting for it shares this promise.
          if (refreshRefused(error)) sessionLostHandler?.();
          throw error;
        },
      )
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };

  client.interceptors.response.use(undefined, async (error: AxiosError) => {
    const config = error.config as RetriedConfig | undefined;
    if (!config || error.response?.status !== 401 || isAuthCall(config.url) || config._retried) throw error;
    // Every request that failed meanwhile waits for the same refresh; a failed refresh rejects each
    // of them with the refresh's error (the server's message).
    await refreshSession();
    // One retry only: a second 401 propagates.
    return client.request({ ...config, _retried: true } as RetriedConfig);
  });

  return { client, refreshSession };
}

let instance: Promise<AxiosInstance> | null = null;

/** The app's instance, built on first use; a chunk that failed to load is asked for again next time. */
function loadApiClient(): Promise<AxiosInstance> {
  instance ??= createApiClient().then(
    ({ client }) => client,
    (error: unknown) => {
      instance = null;
      throw error;
    },
  );
  return instance;
}

/** Fetches axios ahead of the first call (AppShell decides when). */
export function preloadApiClient(): void {
  // A failure shows at the first call, which asks again.
  loadApiClient().catch(() => {});
}

type Config = Omit<AxiosRequestConfig, 'url' | 'method' | 'data'>;

/** The instance's methods the app uses, each waiting for the instance on the first call. */
export const apiClient = {
  request: <T = unknown>(config: AxiosRequestConfig): Promise<AxiosResponse<T>> =>
    loadApiClient().then((client) => client.request<T>(config)),
  get: <T = unknown>(url: string, config?: Config): Promise<AxiosResponse<T>> =>
    loadApiClient().then((client) => client.get<T>(url, config)),
  delete: <T = unknown>(url: string, config?: Config): Promise<AxiosResponse<T>> =>
    loadApiClient().then((client) => client.delete<T>(url, config)),
  post: <T = unknown>(url: string, data?: unknown, config?: Config): Promise<AxiosResponse<T>> =>
    loadApiClient().then((client) => client.post<T>(url, data, config)),
  patch: <T = unknown>(url: string, data?: unknown, config?: Config): Promise<AxiosResponse<T>> =>
    loadApiClient().then((client) => client.patch<T>(url, data, config)),
};

export { OFFLINE_MESSAGE } from './errorTexts';

/**
 * The message to show for a failed call, in the page's language: the catalogue's text for the
 * refusal's `code` (errorTexts.ts; a rate limit's with its wait, "try again in about an hour"), else
 * the server's `message` (a wait in seconds said in English words), else the error's own; a call that got no answer at all says so in
 * words a person reads, never axios's "Network Error" (issue 68, items 5 and 11).
 */
export function errorMessage(error: unknown): string {
  const failed = error as {
    response?: { data?: { message?: unknown; code?: unknown }; headers?: Record<string, unknown> };
    code?: unknown;
  } | null;
  const data = failed?.response?.data;
  if (data && typeof data.message === 'string' && data.message)
    return (
      refusalText(data.code) ??
      rateLimitText(data.code, data.message, failed?.response?.headers?.['retry-after']) ??
      waitInWords(data.message)
    );
  if (failed && !failed.response && (failed.code === 'ERR_NETWORK' || (error as Error).message === 'Network Error')) {
    return offlineText();
  }
  if (error instanceof Error && error.message) return waitInWords(error.message);
  return unknownText();
}

// Shared with the server, which reads the same headers for the pages it renders.
export { nextLink };

export interface Page<T> {
  items: T[];
  next: string | null;
}

export async function getPage<T>(url: string): Promise<Page<T>> {
  const response = await apiClient.get<T[]>(url);
  return { items: response.data, next: nextLink(response.headers.link) };
}
