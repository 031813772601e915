/**
 * An ActivityPub server not built on Fedify, for the federation tests (issue 67, item 4):
 * activitypub.bot (`@evanp/activitypub-bot`, a devDependency pinned in package.json), started
 * through its own command (`bin/activitypub-bot.js`) as a child process on a loopback port, with a
 * SQLite file of its own in a temporary folder. Our glue is only this file, the bots config
 * (independentPeer/bots.mjs: which of its API calls its one account makes) and
 * independentPeer/contexts.mjs (what activitystrea.ms 3.1.0, the version the registry has, lacks
 * of 4.x). WebFinger, actors, collections, HTTP signatures (made and checked), delivery and inbox
 * handling are activitypub-bot's own. docs/federation.md says what it was tested for.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

export const PEER_PACKAGE = '@evanp/activitypub-bot';
export const PEER_VERSION: string = require(`${PEER_PACKAGE}/package.json`).version;

export interface IndependentPeer {
  /** `http://127.0.0.1:{port}` */
  origin: string;
  /** `127.0.0.1:{port}` */
  host: string;
  /** The one account's actor URI. */
  actorUri: string;
  /** The actor URIs in the account's `followers` or `following` collection, as it serves them. */
  collection(name: 'followers' | 'following' | 'liked'): Promise<string[]>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const AS = 'https://www.w3.org/ns/activitystreams#';

/** An id, whether the value is an id, an object with one, or a one-item array of either. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.length > 0 ? idOf(value[0]) : null;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return idOf(record.id ?? record['@id']);
  }
  return null;
}

/** A property of an activitystrea.ms document, written compacted or as its full IRI. */
const field = (doc: Record<string, unknown>, name: string) => doc[name] ?? doc[`${AS}${name}`] ?? doc[`as:${name}`];

const items = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value])
    .map(idOf)
    .filter((id): id is string => id !== null);

export async function startIndependentPeer(): Promise<IndependentPeer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const host = `127.0.0.1:${port}`;
  const dir = await mkdtemp(path.join(tmpdir(), 'posts-peer-'));
  const bin = path.join(path.dirname(require.resolve(`${PEER_PACKAGE}/package.json`)), 'bin', 'activitypub-bot.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      path.join(import.meta.dirname, 'independentPeer', 'contexts.mjs'),
      bin,
      '--database-url',
      `sqlite:${path.join(dir, 'peer.sqlite')}`,
      '--origin',
      origin,
      '--port',
      String(port),
      '--bots-config-file',
      path.join(import.meta.dirname, 'independentPeer', 'bots.mjs'),
      '--log-level',
      process.env.DEBUG_FED ? 'info' : 'warn',
    ],
    {
      // An environment of its own: it reads DATABASE_URL, REDIS_URL, PORT and others from there.
      // ALLOW_PRIVATE is its switch for reaching loopback addresses (its `--allow-private` flag alone
      // is not read as true in 0.51.2: the flag and the variable share one expression).
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ALLOW_PRIVATE: 'true', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
    if (process.env.DEBUG_FED) process.stderr.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  // Ready once its WebFinger answers for the account; an early exit fails with what it printed.
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`activitypub-bot exited before answering:\n${output}`);
    const res = await fetch(`${origin}/.well-known/webfinger?resource=acct:peer@${host}`).catch(() => null);
    if (res?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const actorUri = `${origin}/user/peer`;
  const get = async (url: string) => {
    const res = await fetch(url, { headers: { accept: 'application/activity+json' } });
    if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };

  return {
    origin,
    host,
    actorUri,
    async collection(name) {
      const found: string[] = [];
      const top = await get(`${actorUri}/${name}`);
      found.push(...items(field(top, 'orderedItems') ?? field(top, 'items')));
      let next = idOf(field(top, 'first'));
      while (next) {
        const page = await get(next);
        found.push(...items(field(page, 'orderedItems') ?? field(page, 'items')));
        next = idOf(field(page, 'next'));
      }
      return found;
    },
    async close() {
      if (!gone) {
        child.kill('SIGTERM');
        // Its SIGTERM handler waits for open connections; a kept-alive one would hold it.
        const stop = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(stop);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
