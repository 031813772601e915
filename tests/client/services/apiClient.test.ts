import { http, HttpResponse } from 'msw';
import { EARLY_READS_GLOBAL, EARLY_READS_TTL_MS } from '../../../lib/earlyReadsScript';
import {
  apiClient,
  createApiClient,
  errorMessage,
  getPage,
  OFFLINE_MESSAGE,
  nextLink,
  onSessionLost,
} from '../../../services/apiClient';
import { server } from '../support/server';

/**
 * A session that expires once: each path answers 401 until a refresh succeeds. The refresh answers
 * only once all `parallel` requests have failed, so they all wait for it together.
 */
function expiredSession({ refreshOk = true, parallel = 3 } = {}) {
  const counts = { refresh: 0, a: 0, b: 0, c: 0 };
  let refreshed = false;
  let failed = 0;
  let allFailed!: () => void;
  const everyoneFailed = new Promise<void>((resolve) => (allFailed = resolve));
  const guarded = (name: 'a' | 'b' | 'c') =>
    http.get(`/api/${name}`, () => {
      counts[name] += 1;
      if (refreshed) return HttpResponse.json({ name });
      failed += 1;
      if (failed === parallel) allFailed();
      return HttpResponse.json({ message: 'Token expired', code: 'Unauthorized' }, { status: 401 });
    });
  server.use(
    guarded('a'),
    guarded('b'),
    guarded('c'),
    http.post('/api/auth/refresh', async () => {
      counts.refresh += 1;
      await everyoneFailed;
      if (!refreshOk) return HttpResponse.json({ message: 'Session ended', code: 'Unauthorized' }, { status: 401 });
      refreshed = true;
      return HttpResponse.json({ success: true });
    }),
  );
  return counts;
}

describe('apiClient: the axios instance', () => {
  it('is made with axios.create, with credentials and the base URL', async () => {
    const { client } = await createApiClient('/base');
    expect(client.defaults).toMatchObject({ withCredentials: true, baseURL: '/base' });
    expect(typeof client.interceptors.response.use).toBe('function');
  });
});

describe('apiClient 401 refresh-and-retry', () => {
  it('makes one refresh for parallel 401s and retries each request once', async () => {
    const counts = expiredSession();
    const { client } = await createApiClient();
    const results = await Promise.all(['a', 'b', 'c'].map((name) => client.get<{ name: string }>(`/api/${name}`)));
    expect(results.map((r) => r.data.name)).toEqual(['a', 'b', 'c']);
    expect(counts).toEqual({ refresh: 1, a: 2, b: 2, c: 2 });
  });

  it("rejects every waiting request with the server's message when the refresh fails, without retrying", async () => {
    const counts = expiredSession({ refreshOk: false });
    const { client } = await createApiClient();
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((name) => client.get(`/api/${name}`)));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(outcomes.map((o) => errorMessage((o as PromiseRejectedResult).reason))).toEqual([
      'Session ended',
      'Session ended',
      'Session ended',
    ]);
    expect(counts).toEqual({ refresh: 1, a: 1, b: 1, c: 1 });
  });

  it('tells the session-lost handler once when the shared refresh is refused, and never when it succeeds', async () => {
    const lost = vi.fn();
    const stop = onSessionLost(lost);
    expiredSession({ refreshOk: false });
    const { client } = await createApiClient();
    await Promise.allSettled(['a', 'b', 'c'].map((name) => client.get(`/api/${name}`)));
    expect(lost).toHaveBeenCalledTimes(1);

    expiredSession();
    await Promise.all(['a', 'b', 'c'].map((name) => client.get(`/api/${name}`)));
    expect(lost).toHaveBeenCalledTimes(1);
    stop();
  });

  it('does not call a refresh refused for another reason (429) a lost session', async () => {
    const lost = vi.fn();
    const stop = onSessionLost(lost);
    server.use(
      http.get('/api/a', () => HttpResponse.json({ message: 'Token expired' }, { status: 401 })),
      http.post('/api/auth/refresh', () => HttpResponse.json({ message: 'Too many attempts' }, { status: 429 })),
    );
    const { client } = await createApiClient();
    await expect(client.get('/api/a')).rejects.toMatchObject({ response: { status: 429 } });
    expect(lost).not.toHaveBeenCalled();
    stop();
  });

  it('retries only once: a second 401 after the refresh rejects', async () => {
    let calls = 0;
    let refreshes = 0;
    server.use(
      http.get('/api/always401', () => {
        calls += 1;
        // A client that looped would get through here (and fail the test) instead of running for ever.
        if (calls > 5) return HttpResponse.json({ looped: true });
        return HttpResponse.json({ message: 'Nope', code: 'Unauthorized' }, { status: 401 });
      }),
      http.post('/api/auth/refresh', () => {
        refreshes += 1;
        return HttpResponse.json({ success: true });
      }),
    );
    const { client } = await createApiClient();
    const error = await client.get('/api/always401').catch((e: unknown) => e);
    expect(error).toMatchObject({ isAxiosError: true, response: { status: 401 } });
    expect(errorMessage(error)).toBe('Nope');
    expect(calls).toBe(2);
    expect(refreshes).toBe(1);
  });

  it('a later 401 gets a refresh of its own', async () => {
    let refreshes = 0;
    let expired = true;
    server.use(
      http.get('/api/a', () =>
        expired ? HttpResponse.json({ message: 'Expired' }, { status: 401 }) : HttpResponse.json({ ok: true }),
      ),
      http.post('/api/auth/refresh', () => {
        refreshes += 1;
        expired = false;
        return HttpResponse.json({ success: true });
      }),
    );
    const { client } = await createApiClient();
    await client.get('/api/a');
    expired = true;
    await client.get('/api/a');
    expect(refreshes).toBe(2);
  });

  it.each([
    ['post', '/api/auth/login'],
    ['post', '/api/auth/signup'],
    ['post', '/api/auth/logout'],
    ['post', '/api/auth/refresh'],
    ['get', '/api/auth/getLoggedUser'],
  ] as const)('never refreshes for the auth call %s %s', async (method, path) => {
    let refreshes = 0;
    let calls = 0;
    server.use(
      http[method](path, () => {
        calls += 1;
        if (path === '/api/auth/refresh') refreshes += 1;
        return HttpResponse.json({ message: 'Unauthorized', code: 'Unauthorized' }, { status: 401 });
      }),
    );
    if (path !== '/api/auth/refresh') {
      server.use(
        http.post('/api/auth/refresh', () => {
          refreshes += 1;
          return HttpResponse.json({ success: true });
        }),
      );
    }
    const { client } = await createApiClient();
    await expect(client.request({ method, url: path })).rejects.toMatchObject({ response: { status: 401 } });
    expect(calls).toBe(1);
    expect(refreshes).toBe(path === '/api/auth/refresh' ? 1 : 0);
  });

  it('does not refresh on errors other than 401', async () => {
    let refreshes = 0;
    server.use(
      http.get('/api/forbidden', () => HttpResponse.json({ message: 'Forbidden', code: 'Forbidden' }, { status: 403 })),
      http.post('/api/auth/refresh', () => {
        refreshes += 1;
        return HttpResponse.json({ success: true });
      }),
    );
    const { client } = await createApiClient();
    await expect(client.get('/api/forbidden')).rejects.toMatchObject({ response: { status: 403 } });
    expect(refreshes).toBe(0);
  });

  it('sends credentials, JSON bodies and query parameters', async () => {
    let seen: { type: string | null; body: unknown; feed: string | null } | null = null;
    server.use(
      http.post('/api/echo', async ({ request }) => {
        seen = {
          type: request.headers.get('content-type'),
          body: await request.json(),
          feed: new URL(request.url).searchParams.get('feed'),
        };
        return HttpResponse.json({ ok: true }, { status: 201 });
      }),
    );
    const { client } = await createApiClient();
    const response = await client.post('/api/echo', { message: 'hi' }, { params: { feed: 'all' } });
    expect(response).toMatchObject({ status: 201, data: { ok: true } });
    expect(seen).toEqual({ type: 'application/json', body: { message: 'hi' }, feed: 'all' });
    // The request went out through XMLHttpRequest with credentials.
    expect(response.request).toBeInstanceOf(XMLHttpRequest);
    expect((response.request as XMLHttpRequest).withCredentials).toBe(true);
  });

  it("rejects with the server's message, or the error's own when there is no answer", async () => {
    server.use(
      http.get('/api/missing', () =>
        HttpResponse.json({ message: 'Post not found', code: 'PostNotFound' }, { status: 404 }),
      ),
      http.get('/api/down', () => HttpResponse.error()),
    );
    const { client } = await createApiClient();
    const missing = await client.get('/api/missing').catch((error: unknown) => error);
    expect(missing).toMatchObject({ isAxiosError: true, response: { status: 404 } });
    expect(errorMessage(missing)).toBe('Post not found');
    // Never axios's raw "Network Error" (issue 68, item 5).
    expect(errorMessage(await client.get('/api/down').catch((error: unknown) => error))).toBe(OFFLINE_MESSAGE);
    expect(OFFLINE_MESSAGE).toBe('You appear to be offline. Check your connection and try again.');
  });

  it("says a 429's wait in words (issue 68, item 11)", async () => {
    server.use(
      http.get('/api/limited', () =>
        HttpResponse.json(
          { message: 'Too many requests, try again in 3596 seconds', code: 'RateLimited' },
          { status: 429, headers: { 'Retry-After': '3596' } },
        ),
      ),
    );
    const { client } = await createApiClient();
    const limited = await client.get('/api/limited').catch((error: unknown) => error);
    expect(errorMessage(limited)).toBe('Too many requests, try again in about an hour');
  });
});

describe('the early reads', () => {
  // Taken within 10 s of the page's start (EARLY_READS_TTL_MS): the page starts now, however late
  // a busy machine reaches these tests after jsdom's start.
  beforeEach(() => vi.spyOn(performance, 'now').mockReturnValue(0));
  afterEach(() => {
    vi.restoreAllMocks();
    delete (window as unknown as Record<string, unknown>)[EARLY_READS_GLOBAL];
  });

  const startRead = (path: string, response: Promise<Response>) => {
    (window as unknown as Record<string, unknown>)[EARLY_READS_GLOBAL] = {
      [new URL(path, location.href).href]: response,
    };
  };

  it("answer the first GET for their URL, with the answer's status, body and headers", async () => {
    let wentOut = 0;
    server.use(http.get('/api/list', () => ((wentOut += 1), HttpResponse.json([]))));
    startRead(
      '/api/list',
      Promise.resolve(Response.json([{ id: 1 }], { headers: { Link: '</api/list?cursor=2>; rel="next"' } })),
    );
    const { client } = await createApiClient();
    const response = await client.get('/api/list');
    expect(response).toMatchObject({ status: 200, data: [{ id: 1 }] });
    expect(nextLink(response.headers.link)).toBe('/api/list?cursor=2');
    expect(wentOut).toBe(0);
    await client.get('/api/list');
    expect(wentOut).toBe(1);
  });

  it('follow the 401 rule: a read that answered 401 is retried over the network after one refresh', async () => {
    let refreshes = 0;
    server.use(
      http.get('/api/feed', () => HttpResponse.json({ fresh: true })),
      http.post('/api/auth/refresh', () => ((refreshes += 1), HttpResponse.json({ success: true }))),
    );
    startRead('/api/feed', Promise.resolve(Response.json({ message: 'Token expired' }, { status: 401 })));
    const { client } = await createApiClient();
    expect((await client.get('/api/feed')).data).toEqual({ fresh: true });
    expect(refreshes).toBe(1);
  });

  it('are left alone once the page is older than EARLY_READS_TTL_MS, and the GET goes out', async () => {
    vi.mocked(performance.now).mockReturnValue(EARLY_READS_TTL_MS + 1);
    server.use(http.get('/api/late', () => HttpResponse.json({ fresh: true })));
    startRead('/api/late', Promise.resolve(Response.json({ stale: true })));
    const { client } = await createApiClient();
    expect((await client.get('/api/late')).data).toEqual({ fresh: true });
  });

  it('that got no answer are asked again', async () => {
    server.use(http.get('/api/feed', () => HttpResponse.json({ again: true })));
    const failed = Promise.reject(new TypeError('Failed to fetch'));
    failed.catch(() => {});
    startRead('/api/feed', failed);
    const { client } = await createApiClient();
    expect((await client.get('/api/feed')).data).toEqual({ again: true });
  });
});

describe('apiClient', () => {
  it('hands every call to one instance', async () => {
    server.use(
      http.get('/api/one', () => HttpResponse.json({ n: 1 })),
      http.patch('/api/two', async ({ request }) => HttpResponse.json(await request.json())),
    );
    const [one, two] = await Promise.all([apiClient.get('/api/one'), apiClient.patch('/api/two', { n: 2 })]);
    expect([one.data, two.data]).toEqual([{ n: 1 }, { n: 2 }]);
    expect(one.config.withCredentials).toBe(true);
  });
});

describe('getPage', () => {
  it('returns the items and the rel="next" URL of the Link header', async () => {
    server.use(
      http.get('/api/list', () =>
        HttpResponse.json([{ id: 1 }], { headers: { Link: '</api/list?cursor=2>; rel="next"' } }),
      ),
    );
    expect(await getPage('/api/list')).toEqual({ items: [{ id: 1 }], next: '/api/list?cursor=2' });
  });
});

describe('nextLink', () => {
  it('reads the rel="next" URL of a Link header', () => {
    expect(nextLink('</api/posts?cursor=abc>; rel="next"')).toBe('/api/posts?cursor=abc');
    expect(nextLink('</a>; rel="prev", </b?cursor=2>; rel="next"')).toBe('/b?cursor=2');
    expect(nextLink(undefined)).toBeNull();
    expect(nextLink('</a>; rel="prev"')).toBeNull();
  });
});
