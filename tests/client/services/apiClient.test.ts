import { http, HttpResponse } from 'msw';
import { ApiError, createApiClient, errorMessage, getPage, nextLink } from '../../../services/apiClient';
import { server } from '../support/server';

/** A session that expires once: the first call to each path answers 401 until a refresh succeeds. */
function expiredSession({ refreshOk = true } = {}) {
  const counts = { refresh: 0, a: 0, b: 0, c: 0 };
  let refreshed = false;
  const guarded = (name: 'a' | 'b' | 'c') =>
    http.get(`/api/${name}`, () => {
      counts[name] += 1;
      return refreshed
        ? HttpResponse.json({ name })
        : HttpResponse.json({ message: 'Token expired', code: 'Unauthorized' }, { status: 401 });
    });
  server.use(
    guarded('a'),
    guarded('b'),
    guarded('c'),
    http.post('/api/auth/refresh', async () => {
      counts.refresh += 1;
      // Slow enough that all three 401s arrive while it is in flight.
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (!refreshOk) return HttpResponse.json({ message: 'Session ended', code: 'Unauthorized' }, { status: 401 });
      refreshed = true;
      return HttpResponse.json({ success: true });
    }),
  );
  return counts;
}

describe('apiClient 401 refresh-and-retry', () => {
  it('makes one refresh for concurrent 401s and retries each request once', async () => {
    const counts = expiredSession();
    const { client } = createApiClient();
    const results = await Promise.all(['a', 'b', 'c'].map((name) => client.get<{ name: string }>(`/api/${name}`)));
    expect(results.map((r) => r.data.name)).toEqual(['a', 'b', 'c']);
    expect(counts).toEqual({ refresh: 1, a: 2, b: 2, c: 2 });
  });

  it('propagates the error when the refresh fails, without retrying', async () => {
    const counts = expiredSession({ refreshOk: false });
    const { client } = createApiClient();
    const outcomes = await Promise.allSettled([client.get('/api/a'), client.get('/api/b')]);
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(counts.refresh).toBe(1);
    expect(counts.a).toBe(1);
    expect(counts.b).toBe(1);
  });

  it('retries only once: a second 401 propagates', async () => {
    let calls = 0;
    let refreshes = 0;
    server.use(
      http.get('/api/always401', () => {
        calls += 1;
        return HttpResponse.json({ message: 'Nope', code: 'Unauthorized' }, { status: 401 });
      }),
      http.post('/api/auth/refresh', () => {
        refreshes += 1;
        return HttpResponse.json({ success: true });
      }),
    );
    const { client } = createApiClient();
    await expect(client.get('/api/always401')).rejects.toMatchObject({ response: { status: 401 } });
    expect(calls).toBe(2);
    expect(refreshes).toBe(1);
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
    const { client } = createApiClient();
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
    const { client } = createApiClient();
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
    // Node's fetch drops the credentials mode before msw sees it, so look at what the client asks for.
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { client } = createApiClient();
    const response = await client.post('/api/echo', { message: 'hi' }, { params: { feed: 'all' } });
    expect(response).toMatchObject({ status: 201, data: { ok: true } });
    expect(seen).toEqual({ type: 'application/json', body: { message: 'hi' }, feed: 'all' });
    expect(fetchSpy.mock.calls[0][1]).toMatchObject({ method: 'POST', credentials: 'include' });
    fetchSpy.mockRestore();
  });

  it("rejects with the server's message, or the error's own when there is no answer", async () => {
    server.use(
      http.get('/api/missing', () =>
        HttpResponse.json({ message: 'Post not found', code: 'PostNotFound' }, { status: 404 }),
      ),
      http.get('/api/down', () => HttpResponse.error()),
    );
    const { client } = createApiClient();
    const missing = await client.get('/api/missing').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect(errorMessage(missing)).toBe('Post not found');
    expect(errorMessage(await client.get('/api/down').catch((error: unknown) => error))).toBe('Network Error');
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
