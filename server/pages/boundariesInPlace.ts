/**
 * Next.js renders a page's HTML whole (it waits for React's `allReady`), yet React still "outlines"
 * a finished Suspense boundary once the page passes 12,800 bytes (`progressiveChunkSize`): the
 * fallback goes in place, the content into a hidden div at the end, and a script swaps them after
 * the first paint, throttled to 300 ms after it. With nothing left to stream that only delays the
 * content's paint and adds a long task moving it in (the post page with its comments was the one
 * page past the threshold; docs/benchmarks/log/2026-11-29.md, "The page-wide CSS and the post page's boundary"). Next passes React no options, so this gives every
 * render an unbounded chunk size: finished boundaries are written in place, as on smaller pages.
 */
import { createRequire } from 'node:module';

type Render = (children: unknown, options?: object) => Promise<unknown>;

/** Called once, before Next.js starts. */
export function renderBoundariesInPlace(): void {
  // The module Next's pages renderer requires (next/dist/server/ReactDOMServerPages.js).
  const server = createRequire(import.meta.url)('react-dom/server.edge') as { renderToReadableStream: Render };
  const render = server.renderToReadableStream;
  server.renderToReadableStream = (children, options) =>
    render(children, { ...options, progressiveChunkSize: Infinity });
}
