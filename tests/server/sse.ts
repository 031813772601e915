/** A Server-Sent Events client for tests: real HTTP to a listening app, the body read as it arrives. */
import type { FastifyInstance } from 'fastify';

export interface SseEvent {
  event: string | null;
  id: string | null;
  data: string | null;
  /** Comment lines (`: ...`), without the colon. */
  comments: string[];
}

/** The app's address, listening on a free port (once). */
export async function listening(app: FastifyInstance): Promise<string> {
  const address = app.server.address();
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`;
  return app.listen({ port: 0, host: '127.0.0.1' });
}

function parse(block: string): SseEvent {
  const event: SseEvent = { event: null, id: null, data: null, comments: [] };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) event.comments.push(line.slice(1).trim());
    else if (line.startsWith('event: ')) event.event = line.slice(7);
    else if (line.startsWith('id: ')) event.id = line.slice(4);
    else if (line.startsWith('data: ')) event.data = (event.data === null ? '' : event.data + '\n') + line.slice(6);
  }
  return event;
}

export async function openStream(app: FastifyInstance, headers: Record<string, string>) {
  const base = await listening(app);
  const controller = new AbortController();
  const response = await fetch(`${base}/api/notifications/stream`, { headers, signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const blocks: SseEvent[] = [];
  // One read at a time: a read left behind by a timeout still holds the next chunk.
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;

  /** The next block (event or comment) that passes `accept`, or an error after `timeoutMs`. */
  async function next(accept: (event: SseEvent) => boolean = () => true, timeoutMs = 30_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = blocks.findIndex(accept);
      if (index >= 0) return blocks.splice(0, index + 1)[index];
      blocks.length = 0;
      if (ended) throw new Error('the stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      pending ??= reader.read();
      const chunk = await Promise.race([
        pending,
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), left))),
      ]);
      clearTimeout(timer);
      if (chunk === null) continue;
      pending = null;
      if (chunk.done) ended = true;
      else buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        blocks.push(parse(buffer.slice(0, end)));
        buffer = buffer.slice(end + 2);
      }
    }
  }

  return {
    response,
    next,
    /** The next `notification` event, its data parsed. */
    async notification(timeoutMs?: number) {
      const event = await next((e) => e.event === 'notification', timeoutMs);
      return { id: event.id, data: JSON.parse(event.data!) as Record<string, unknown> };
    },
    /** The next `unread` event: the count it carries, and its id (none is sent). */
    async unread(timeoutMs?: number) {
      const event = await next((e) => e.event === 'unread', timeoutMs);
      return { id: event.id, count: (JSON.parse(event.data!) as { count: number }).count };
    },
    /** The next event of any type (comment lines skipped). */
    async event(timeoutMs?: number): Promise<SseEvent> {
      return next((e) => e.event !== null, timeoutMs);
    },
    /** True when the server ends the stream within `timeoutMs`. */
    async ends(timeoutMs = 30_000): Promise<boolean> {
      try {
        await next(() => false, timeoutMs);
      } catch (error) {
        return (error as Error).message === 'the stream ended';
      }
      return false;
    },
    close: () => controller.abort(),
  };
}
