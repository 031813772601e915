/**
 * A body refused for its length is still read to its end (and dropped) before the 413 goes out.
 * Fastify answers as soon as it sees the length and closes the connection; a proxy still sending
 * the body then meets a reset and may answer 502 in place of the app's 413 (nginx did, now and
 * then, in `tests/cluster/cluster.test.ts`). Past `max` bytes the connection is closed as before.
 */
import type { IncomingMessage } from 'node:http';

/** nginx's own limit is 5 MiB (`deploy/nginx`): anything it lets through is read. */
export const REFUSED_BODY_READ_MAX = 8 * 1024 * 1024;

/** True once the whole body was read; false when it was longer than `max` or the connection went. */
export function readRefusedBody(raw: IncomingMessage, max = REFUSED_BODY_READ_MAX): Promise<boolean> {
  if (raw.complete) return Promise.resolve(true);
  if (Number(raw.headers['content-length']) > max) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const done = (whole: boolean) => {
      raw.off('data', onData).off('end', onEnd).off('error', onFailed).off('close', onFailed);
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > max) {
        raw.pause();
        done(false);
      }
    };
    const onEnd = () => done(true);
    const onFailed = () => done(raw.complete);
    raw.on('data', onData).on('end', onEnd).on('error', onFailed).on('close', onFailed);
    raw.resume();
  });
}
