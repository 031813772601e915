/** Open notification streams (Server-Sent Events) held against the server while rows run. */
import http from 'node:http';

export interface OpenStreams {
  /** Streams still open (the server has ended none). */
  open(): number;
  /** Bytes received on all of them (heartbeats, notifications). */
  bytes(): number;
  close(): void;
}

/**
 * Opens `count` streams to `baseUrl`, spread over the sessions in `cookies`, each on its own
 * connection, and resolves once every one has answered 200 and sent its first line.
 */
export async function openStreams(baseUrl: string, cookies: string[], count: number): Promise<OpenStreams> {
  const url = new URL('/api/notifications/stream', baseUrl);
  const requests: http.ClientRequest[] = [];
  let open = 0;
  let bytes = 0;
  let closing = false;
  const one = (cookie: string) =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(url, { agent: false, headers: { cookie, accept: 'text/event-stream' } }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`a stream answered ${response.statusCode}`));
          return;
        }
        open += 1;
        response.once('data', () => resolve());
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.once('close', () => (open -= 1));
      });
      request.on('error', (error) => (closing ? undefined : reject(error)));
      requests.push(request);
    });
  // A few hundred at a time: Node accepts one connection per event-loop turn (docs/benchmarks/method.md, "Method").
  for (let start = 0; start < count; start += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, count - start) }, (_, i) => one(cookies[(start + i) % cookies.length])),
    );
  }
  return {
    open: () => open,
    bytes: () => bytes,
    close() {
      closing = true;
      for (const request of requests) request.destroy();
    },
  };
}
