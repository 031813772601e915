/**
 * jsdom has no EventSource: this stands in for the browser's, and lets a test open, feed and
 * fail each stream the app opened (`FakeEventSource.instances`).
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readonly url: string;
  readonly withCredentials: boolean;
  readyState = FakeEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;

  constructor(url: string | URL, init?: EventSourceInit) {
    super();
    this.url = String(url);
    this.withCredentials = Boolean(init?.withCredentials);
    FakeEventSource.instances.push(this);
  }

  /** The latest stream opened. */
  static last(): FakeEventSource {
    const last = FakeEventSource.instances.at(-1);
    if (!last) throw new Error('No EventSource was opened');
    return last;
  }

  /** The server answered 200: the stream is open. */
  open(): void {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.(new Event('open'));
  }

  /** One `event: type`, `id:`, `data:` JSON block. */
  emit(type: string, data: unknown, id = ''): void {
    this.dispatchEvent(
      new MessageEvent(type, { data: typeof data === 'string' ? data : JSON.stringify(data), lastEventId: id }),
    );
  }

  /** The connection dropped (the browser reconnects) or, `refused`, the server answered non-200 (it does not). */
  fail(refused: boolean): void {
    this.readyState = refused ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.onerror?.(new Event('error'));
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }
}
