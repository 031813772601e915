import { combineResults, luaScript, parseWrk } from '../../bench/wrk';

// The benchmark's figures are only as good as their arithmetic: a row measured in turns with
// another must come out as if measured in one piece.
describe('bench: wrk results', () => {
  it('reads requests, req/s, p50, p99 and errors from wrk --latency', () => {
    const output = [
      'Running 2s test @ http://127.0.0.1:3000',
      '  2 threads and 50 connections',
      '  Latency Distribution',
      '     50%  812.00us',
      '     75%    1.20ms',
      '     90%    2.01ms',
      '     99%    1.10s',
      '  4000 requests in 2.00s, 1.00MB read',
      '  Non-2xx or 3xx responses: 3',
      '  Socket errors: connect 0, read 1, write 0, timeout 2',
      'Requests/sec:   2000.00',
    ].join('\n');
    expect(parseWrk(output)).toEqual({ requests: 4000, rps: 2000, p50: 0.812, p99: 1100, errors: 6 });
  });

  it('combines turns: req/s over the summed time, requests-weighted p50, the worst p99', () => {
    const combined = combineResults([
      { requests: 3000, rps: 1500, p50: 10, p99: 40, errors: 0 }, // 2 s
      { requests: 1000, rps: 500, p50: 30, p99: 90, errors: 2 }, // 2 s
    ]);
    expect(combined).toEqual({ requests: 4000, rps: 1000, p50: 15, p99: 90, errors: 2 });
  });

  it('leaves a row measured in one piece as it is', () => {
    const single = { requests: 10, rps: 5, p50: 1, p99: 2, errors: 0 };
    expect(combineResults([single])).toBe(single);
  });
});

// Issue 24: wrk's per-request Lua runs on the cores the server shares; a fixed path needs none.
describe('bench: wrk scripts', () => {
  it('sends one path as a static request, with the first request of each connection held', () => {
    const script = luaScript({ paths: ['/api/posts?feed=all'], headers: { cookie: 'a=b' } }, 50);
    expect(script).toContain('wrk.path = "/api/posts?feed=all"');
    expect(script).toContain('wrk.headers["cookie"] = "a=b"');
    expect(script).not.toContain('request = function');
    expect(script).toContain('if started <= 50 then return 20 end');
  });

  it('picks one of several paths per request in Lua', () => {
    const script = luaScript({ method: 'PATCH', paths: ['/a', '/b'], body: '{}' }, 25);
    expect(script).toContain('local paths = { "/a", "/b" }');
    expect(script).toContain('request = function()');
    expect(script).toContain('wrk.method = "PATCH"');
  });

  it('leaves the delay hook out when the first request is not held', () => {
    expect(luaScript({ paths: ['/'], holdFirst: false }, 50)).not.toContain('function delay');
  });
});
