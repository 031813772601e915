/**
 * Read your own writes through a balancer that routes each request anywhere (issue 72): a write's
 * answer sets the `seen_writes` cookie to the bus position it reached (this instance's publisher id
 * and the last number it sent), merged with the positions of the person's writes on other
 * instances. A request carrying it is answered only once this instance has heard each of those
 * positions (`Bus.caughtUp`), which the events carry within milliseconds; past the bus's silence
 * bound every cache starts over instead ('behind'), so the answer is read from the database.
 *
 * The cookie is signed (HMAC with `JWT_SECRET`, which every instance shares) and carries its own
 * expiry: a forged or replayed one could otherwise make an instance wait and forget at will.
 * docs/api-decisions.md, "Reading your own writes".
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Bus } from './bus';
import { setBounded } from '../cache/bounded';

export const SEEN_WRITES_COOKIE = 'seen_writes';
/** How long a write's position is worth waiting for: far past any healthy bus's delay. */
const SEEN_FOR_MS = 60_000;
/** Instances remembered per cookie: a person writing through more has the oldest dropped (merged per write). */
const MAX_POSITIONS = 8;
const POSITION = /^([0-9a-f-]{36}):(\d{1,15})$/;
/** Cookies whose signature was checked, kept: a reader sends the same one until their next write. */
const CHECKED_MAX = 10_000;

type Positions = ReadonlyMap<string, number>;
const NONE: Positions = new Map();

export interface ReadYourWrites {
  /** Before a request: undefined when this instance has heard what the reader wrote, else the wait. */
  catchUp(request: FastifyRequest): Promise<void> | undefined;
  /** After a write: the cookie names this instance's position too. */
  afterWrite(request: FastifyRequest, reply: FastifyReply): void;
}

export function readYourWrites(options: {
  bus: Pick<Bus, 'position' | 'caughtUp'>;
  secret: string;
  secure: boolean;
  /** Every cache starts over: a position not heard within the bound. */
  behind: () => void;
  now?: () => number;
}): ReadYourWrites {
  const now = options.now ?? Date.now;
  const sign = (body: string) => createHmac('sha256', options.secret).update(body).digest('base64url').slice(0, 22);

  /** What a cookie says, when it is ours and signed: until when, and the positions; else null. */
  function verify(cookie: string): { until: number; positions: Positions } | null {
    const cut = cookie.lastIndexOf('.');
    const body = cookie.slice(0, cut);
    const mac = Buffer.from(cookie.slice(cut + 1));
    const expected = Buffer.from(sign(body));
    if (cut < 0 || mac.length !== expected.length || !timingSafeEqual(mac, expected)) return null;
    const [until, ...entries] = body.split('~');
    const positions = new Map<string, number>();
    for (const entry of entries) {
      const match = POSITION.exec(entry);
      if (match) positions.set(match[1], Number(match[2]));
    }
    return { until: Number(until), positions };
  }
  // A signature checked is checked for good (the same text, the same secret): each request of a
  // reader who wrote lately computed an HMAC, a tenth of a read's CPU in the mix
  // (docs/benchmarks/log/2026-12-07.md, "The mix's reads"). The expiry is asked at each read.
  const checked = new Map<string, { until: number; positions: Positions }>();

  /** The positions a cookie names, when it is ours, signed and not expired; else none. */
  function read(cookie: string | undefined): Positions {
    if (!cookie || cookie.length > 600) return NONE;
    let said = checked.get(cookie);
    if (!said) {
      const verified = verify(cookie);
      if (!verified) return NONE;
      setBounded(checked, cookie, (said = verified), CHECKED_MAX);
    }
    return said.until > now() ? said.positions : NONE;
  }

  return {
    catchUp(request) {
      const positions = read(request.cookies[SEEN_WRITES_COOKIE]);
      const waits: (boolean | Promise<boolean>)[] = [];
      for (const [id, seq] of positions) {
        const caught = options.bus.caughtUp(id, seq);
        if (caught !== true) waits.push(caught);
      }
      if (waits.length === 0) return undefined;
      return Promise.all(waits).then((caught) => {
        if (caught.includes(false)) options.behind();
      });
    },
    afterWrite(request, reply) {
      const { id, seq } = options.bus.position();
      if (seq === 0) return;
      const positions = new Map(read(request.cookies[SEEN_WRITES_COOKIE]));
      positions.delete(id);
      const kept = [[id, seq], ...positions].slice(0, MAX_POSITIONS);
      const body = [String(now() + SEEN_FOR_MS), ...kept.map(([at, n]) => `${at}:${n}`)].join('~');
      reply.setCookie(SEEN_WRITES_COOKIE, `${body}.${sign(body)}`, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: options.secure,
        maxAge: SEEN_FOR_MS / 1000,
      });
    },
  };
}
