/** A bare WebSocket on the client API's streaming path, for the tests that read its messages. */

export interface StreamMessage {
  stream: string[];
  event: string;
  payload: string;
}

/** Generous: the machine running the suite may be busy; nothing here measures speed. */
const WAIT_MS = 15_000;

/** Waits until `condition` holds, failing with `what` after `WAIT_MS`. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Opens `url` (a `ws:` address with its query) once the server accepts it; its messages kept in order. */
export async function streamingSocket(url: string, protocols?: string | string[]) {
  const ws = new WebSocket(url, protocols);
  const messages: StreamMessage[] = [];
  let closed: CloseEvent | null = null;
  ws.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data)) as StreamMessage));
  ws.addEventListener('close', (event) => (closed = event));
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error('WebSocket refused')), { once: true });
  });
  return {
    ws,
    messages,
    closed: () => closed,
    /** The first message (after `from`) that `match` accepts. */
    async next(match: (m: StreamMessage) => boolean, from = 0): Promise<StreamMessage> {
      await until(() => messages.slice(from).some(match), 'a stream message');
      return messages.slice(from).find(match)!;
    },
  };
}
