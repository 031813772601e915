/**
 * The one HTTP client of the app. It sends credentials (the session lives in HttpOnly cookies)
 * and, when a request fails with 401, makes one refresh call — shared by every request failing at
 * that moment — and retries each of them once (spec section 8).
 *
 * Built on the platform (fetch, and XMLHttpRequest only where upload progress is wanted) rather
 * than axios, which weighed on every page's first load (figures: docs/frontend.md).
 */
import { nextLink } from '../lib/links';
import { takeEarlyRead } from './earlyReads';
import type { RawResponse } from './rawResponse';
import { sendWithProgress } from './uploadTransport';

export const REFRESH_PATH = '/api/auth/refresh';

/** The auth calls never trigger the refresh-and-retry rule (API.md). */
const AUTH_PATHS = ['/api/auth/signup', '/api/auth/login', '/api/auth/getLoggedUser', REFRESH_PATH, '/api/auth/logout'];

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface RequestConfig {
  method?: Method;
  url: string;
  /** Query parameters, appended to the URL. */
  params?: Record<string, string | number>;
  /** A JSON body, or FormData sent as multipart. */
  data?: unknown;
  /** Send cookies; defaults to the client's setting (true). */
  withCredentials?: boolean;
  /** Sends through XMLHttpRequest so the upload's progress can be reported. */
  onUploadProgress?: (event: { loaded: number; total: number }) => void;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** A call that got an error status (with the server's body) or no answer at all. */
export class ApiError extends Error {
  readonly config: RequestConfig;
  readonly response?: { status: number; data: unknown };

  constructor(message: string, config: RequestConfig, response?: { status: number; data: unknown }) {
    super(message);
    this.name = 'ApiError';
    this.config = config;
    this.response = response;
  }
}

export function isAuthCall(url: string | undefined): boolean {
  if (!url) return false;
  const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
  return AUTH_PATHS.includes(path);
}

function parseBody(raw: RawResponse): unknown {
  if (!raw.body) return '';
  if (!(raw.headers.get('content-type') ?? '').includes('json')) return raw.body;
  try {
    return JSON.parse(raw.body);
  } catch {
    return raw.body;
  }
}

async function sendWithFetch(url: string, init: RequestInit): Promise<RawResponse> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new TypeError('Network Error');
  }
  return { status: response.status, headers: response.headers, body: await response.text() };
}

export interface ApiClient {
  defaults: { baseURL: string; withCredentials: boolean };
  request<T = unknown>(config: RequestConfig): Promise<ApiResponse<T>>;
  get<T = unknown>(url: string, config?: Omit<RequestConfig, 'url' | 'method' | 'data'>): Promise<ApiResponse<T>>;
  delete<T = unknown>(url: string, config?: Omit<RequestConfig, 'url' | 'method' | 'data'>): Promise<ApiResponse<T>>;
  post<T = unknown>(
    url: string,
    data?: unknown,
    config?: Omit<RequestConfig, 'url' | 'method' | 'data'>,
  ): Promise<ApiResponse<T>>;
  patch<T = unknown>(
    url: string,
    data?: unknown,
    config?: Omit<RequestConfig, 'url' | 'method' | 'data'>,
  ): Promise<ApiResponse<T>>;
}

export function createApiClient(baseURL = ''): { client: ApiClient; refreshSession: () => Promise<void> } {
  const defaults = { baseURL, withCredentials: true };
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

  async function sendOnce<T>(config: RequestConfig): Promise<ApiResponse<T>> {
    const method = (config.method ?? 'get').toUpperCase();
    const url = new URL(
      defaults.baseURL + config.url,
      typeof location === 'undefined' ? 'http://localhost' : location.href,
    );
    for (const [key, value] of Object.entries(config.params ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: BodyInit | undefined;
    if (config.data instanceof FormData) body = config.data;
    else if (config.data !== undefined) {
      body = JSON.stringify(config.data);
      headers['Content-Type'] = 'application/json';
    }
    const withCredentials = config.withCredentials ?? defaults.withCredentials;
    const send = () =>
      sendWithFetch(url.href, { method, headers, body, credentials: withCredentials ? 'include' : 'omit' });
    const early = method === 'GET' && withCredentials ? takeEarlyRead(url.href) : null;
    let raw: RawResponse;
    if (config.onUploadProgress) {
      raw = await sendWithProgress({
        method,
        url: url.href,
        headers,
        body,
        withCredentials,
        onProgress: config.onUploadProgress,
      });
    } else if (early) {
      // The document started this read already; if it failed to get an answer, ask again.
      raw = await early.catch(send);
    } else {
      raw = await send();
    }
    const data = parseBody(raw);
    if (raw.status < 200 || raw.status >= 300) {
      throw new ApiError(`Request failed with status code ${raw.status}`, config, { status: raw.status, data });
    }
    return { data: data as T, status: raw.status, headers: raw.headers };
  }

  async function request<T>(config: RequestConfig): Promise<ApiResponse<T>> {
    try {
      return await sendOnce<T>(config);
    } catch (error) {
      if (!(error instanceof ApiError) || error.response?.status !== 401 || isAuthCall(config.url)) throw error;
      // A failed refresh rejects here and propagates to every caller waiting on it.
      await refreshSession();
      // One retry only: a second 401 propagates.
      return sendOnce<T>(config);
    }
  }

  const client: ApiClient = {
    defaults,
    request,
    get: (url, config) => request({ ...config, url, method: 'get' }),
    delete: (url, config) => request({ ...config, url, method: 'delete' }),
    post: (url, data, config) => request({ ...config, url, data, method: 'post' }),
    patch: (url, data, config) => request({ ...config, url, data, method: 'patch' }),
  };
  return { client, refreshSession };
}

const api = createApiClient();
export const apiClient = api.client;
export const refreshSession = api.refreshSession;

/** The message to show for a failed call: the server's `message`, else the error's own. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const data = error.response?.data as { message?: unknown } | undefined;
    if (data && typeof data.message === 'string' && data.message) return data.message;
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong';
}

// Shared with the server, which reads the same headers for the pages it renders.
export { nextLink };

export interface Page<T> {
  items: T[];
  next: string | null;
}

export async function getPage<T>(url: string, params?: Record<string, string | number>): Promise<Page<T>> {
  const response = await apiClient.get<T[]>(url, { params });
  return { items: response.data, next: nextLink(response.headers.get('link')) };
}
