/**
 * Attacker-shaped inbox input (issue 68, item 36): signed activities of odd shapes — objects that
 * are arrays, numbers or null, ids that are not URLs, huge numbers, types nobody knows in
 * Undo/Delete/Update/Like, a Create/Update/Undo whose object is an id that answers 404 — answer
 * 2xx or 4xx, never 5xx, and no body carries a stack trace. Load shed on purpose (503) is logged
 * below error level.
 */
import { Writable } from 'node:stream';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer } from './remoteServer';

let t: TestApp;
let local: string;
let remote: RemoteServer;
let ann: SignedInUser;

beforeAll(async () => {
  remote = await startRemoteServer(['zoe']);
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
  ann = await signIn(t.app, { username: 'ann' });
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

/** What a stack trace looks like in a body: `at fn (file:line:col)` lines, or a file path with a line. */
const STACK = /\n\s+at |\bat .*:\d+:\d+|node_modules|\.ts:\d+/;

function oddActivities(): Record<string, Record<string, unknown>> {
  const zoe = remote.actorUri('zoe');
  const annUri = `${local}/users/${ann.id}`;
  const missing = (n: number) => `${remote.origin}/missing/${n}`;
  const wibble = (n: number) => ({ type: 'Wibble', id: `${remote.origin}/wibbles/${n}` });
  return {
    'Follow of an array': { type: 'Follow', object: [annUri, annUri] },
    'Follow of a non-URL': { type: 'Follow', object: 'not a url' },
    'Like of an array': { type: 'Like', object: [{ id: `${local}/post/x` }] },
    'Like of a huge id': { type: 'Like', object: `${local}/post/${'9'.repeat(400)}` },
    'Like of a number': { type: 'Like', object: 1e308 },
    'Like of null': { type: 'Like', object: null },
    'Like of an unknown type': { type: 'Like', object: wibble(1) },
    'Undo of an unknown type': { type: 'Undo', object: { ...wibble(2), actor: zoe } },
    'Undo of an id that 404s': { type: 'Undo', object: missing(1) },
    'Undo of an empty array': { type: 'Undo', object: [] },
    'Delete of an unknown type': { type: 'Delete', object: wibble(3) },
    'Delete of an id that 404s': { type: 'Delete', object: missing(2) },
    'Delete of a number': { type: 'Delete', object: 12 },
    'Update of an unknown type': { type: 'Update', object: wibble(4) },
    'Update of an id that 404s': { type: 'Update', object: missing(3) },
    'Update of a note never kept': {
      type: 'Update',
      object: { type: 'Note', id: `${remote.origin}/notes/0`, content: 'x' },
    },
    'Create of an id that 404s': { type: 'Create', object: missing(4) },
    'Create of an array': {
      type: 'Create',
      object: [{ type: 'Note', id: `${remote.origin}/notes/a`, content: 'a' }, 'x'],
    },
    'Create of a note without id': { type: 'Create', object: { type: 'Note', content: 'no id', attributedTo: zoe } },
    'Create of a note whose id is not a URL': {
      type: 'Create',
      object: { type: 'Note', id: 'urn:x:1', content: 'x', attributedTo: zoe },
    },
    'Create of a note with huge numbers': {
      type: 'Create',
      object: {
        type: 'Note',
        id: `${remote.origin}/notes/h`,
        content: 'x',
        attributedTo: zoe,
        published: 1e308,
        to: 5,
      },
    },
    'Create of a reply to an id that 404s': {
      type: 'Create',
      object: { type: 'Note', id: `${remote.origin}/notes/r`, content: 'x', attributedTo: zoe, inReplyTo: missing(5) },
    },
    'Accept of an unknown type': { type: 'Accept', object: { type: 'Wibble' } },
    'Announce of an id that 404s': { type: 'Announce', object: missing(6) },
    'Block of a non-URL': { type: 'Block', object: 'nope' },
    'Flag of numbers': { type: 'Flag', object: [1, 2] },
    'an id that is not a URL': { type: 'Like', object: annUri, id: 'not a url' },
    'an actor array': { type: 'Like', object: annUri, actor: [zoe, zoe] },
    'an unknown type': { type: 'Wibble', object: annUri },
    'types in an array': { type: ['Like', 'Wibble'], object: annUri },
    'a type that is a number': { type: 5, object: annUri },
  };
}

describe('signed activities of odd shapes', () => {
  it('answer 2xx or 4xx, never 5xx, and no body carries a stack trace', async () => {
    let n = 0;
    const answers: Record<string, string> = {};
    const zoe = remote.actorUri('zoe');
    // Twice each: the first request goes through Fedify (zoe's key fetched), the later ones through
    // the short path for keys kept here (`signedInbox.ts`); the shared and a personal inbox.
    for (const round of [1, 2])
      for (const [name, activity] of Object.entries(oddActivities()))
        for (const path of ['/inbox', `/users/${ann.id}/inbox`]) {
          const id = `${remote.origin}/activities/${++n}`;
          const response = await remote.signedPost('zoe', `${local}${path}`, { id, actor: zoe, ...activity });
          const body = await response.text();
          if (response.status >= 500 || STACK.test(body))
            answers[`${name} (${path === '/inbox' ? 'shared' : 'personal'}, round ${round})`] =
              `${response.status} ${body}`;
        }
    expect(answers).toEqual({});
  });
});

describe('load shed on purpose', () => {
  it('a 503 StreamsFull is logged as a warning, not an error', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const full = await createTestApp({ SSE_STREAMS_MAX: '0', LOG_LEVEL: 'info' }, { logStream });
    try {
      const bob = await signIn(full.app);
      const refused = await full.app.inject({ method: 'GET', url: '/api/notifications/stream', headers: bob.headers });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'StreamsFull' });
      const about = lines.filter((line) => /refused|full/i.test(line.msg));
      expect(about.length).toBeGreaterThan(0);
      expect(about.every((line) => line.level < 50)).toBe(true);
    } finally {
      await full.close();
    }
  });
});
