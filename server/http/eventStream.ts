/**
 * The one server-sent events writer (the notifications' stream and the client API's streaming):
 * the response's head, events, comments, and the bound on what a slow reader may leave unread.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bytes a reader may leave unread before its stream is cut (it reconnects and replays what it missed). */
export const MAX_PENDING_BYTES = 1 << 20;

/** Answers `req` with an event stream: the head, then `greeting` as a comment so the client knows it is open. */
export function openEventStream(req: IncomingMessage, res: ServerResponse, greeting: string): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    Connection: 'keep-alive',
    // Proxies such as nginx would otherwise hold the events back in their buffers.
    'X-Accel-Buffering': 'no',
  });
  req.socket.setNoDelay(true);
  writeComment(res, greeting);
}

/** Writes one event (`data` one line: JSON); a reader this far behind is cut off. False when the stream is gone. */
export function writeEvent(res: ServerResponse, event: string, data: string, id?: string): boolean {
  if (res.destroyed || res.writableEnded) return false;
  res.write(id === undefined ? `event: ${event}\ndata: ${data}\n\n` : `event: ${event}\nid: ${id}\ndata: ${data}\n\n`);
  if (res.writableLength > MAX_PENDING_BYTES) res.destroy();
  return true;
}

/** A comment line: a heartbeat that keeps proxies from closing an idle stream. */
export function writeComment(res: ServerResponse, text: string): void {
  if (!res.destroyed && !res.writableEnded) res.write(`: ${text}\n\n`);
}
