/**
 * The one axios instance of the client. It sends credentials (the session lives in HttpOnly
 * cookies) and, when a request fails with 401, makes one refresh call — shared by every
 * request failing at that moment — and retries each of them once (spec section 8).
 */
import axios, { AxiosError, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';

export const REFRESH_PATH = '/api/auth/refresh';

/** The auth calls never trigger the refresh-and-retry rule (API.md). */
const AUTH_PATHS = [
  '/api/auth/signup',
  '/api/auth/login',
  '/api/auth/getLoggedUser',
  REFRESH_PATH,
  '/api/auth/logout',
];

type RetriableConfig = InternalAxiosRequestConfig & { _retried?: boolean };

export function isAuthCall(url: string | undefined): boolean {
  if (!url) return false;
  const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
  return AUTH_PATHS.includes(path);
}

export function createApiClient(baseURL = ''): { client: AxiosInstance; refreshSession: () => Promise<void> } {
  const client = axios.create({ baseURL, withCredentials: true });
  let refreshing: Promise<void> | null = null;

  const refreshSession = (): Promise<void> => {
    refreshing ??= client
      .post(REFRESH_PATH)
      .then(() => undefined)
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };

  client.interceptors.response.use(undefined, async (error: unknown) => {
    if (!(error instanceof AxiosError)) throw error;
    const config = error.config as RetriableConfig | undefined;
    if (error.response?.status !== 401 || !config || config._retried || isAuthCall(config.url)) {
      throw error;
    }
    config._retried = true;
    // A failed refresh rejects here and propagates to every caller waiting on it.
    await refreshSession();
    return client.request(config);
  });

  return { client, refreshSession };
}

const api = createApiClient();
export const apiClient = api.client;
export const refreshSession = api.refreshSession;

/** The message to show for a failed call: the server's `message`, else the error's own. */
export function errorMessage(error: unknown): string {
  if (error instanceof AxiosError) {
    const data = error.response?.data as { message?: unknown } | undefined;
    if (data && typeof data.message === 'string' && data.message) return data.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong';
}

/** The `rel="next"` URL of a `Link` response header, or null at the end of a list. */
export function nextLink(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return null;
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

export async function getPage<T>(url: string, params?: Record<string, string | number>): Promise<Page<T>> {
  const response = await apiClient.get<T[]>(url, { params });
  return { items: response.data, next: nextLink(response.headers['link']) };
}
