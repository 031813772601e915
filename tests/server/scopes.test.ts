/**
 * The OAuth scope checks (`oauth/scopes.ts`) and the client API's guard made of them
 * (`mastodon/scopeGuard.ts`), case by case. The flows through HTTP are in mastodon/oauth.test.ts and
 * mastodon/adminScope.test.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, InvalidError, UnauthorizedError } from '../../server/domain/errors';
import { HttpError } from '../../server/http/errors';
import { SCOPE_MISSING, TOKEN_INVALID, USER_REQUIRED, needs } from '../../server/mastodon/scopeGuard';
import type { BearerAuth } from '../../server/oauth/service';
import { KNOWN_SCOPES, allowedFor, covers, parseScopes } from '../../server/oauth/scopes';

describe('parseScopes', () => {
  it('reads space- or plus-separated scopes once each, and `read` when none are given', () => {
    expect(parseScopes('read write:statuses  follow')).toEqual(['read', 'write:statuses', 'follow']);
    expect(parseScopes('read+write+read')).toEqual(['read', 'write']);
    expect(parseScopes(' push\t admin:read ')).toEqual(['push', 'admin:read']);
    for (const none of [undefined, null, '', '  ', '+']) expect(parseScopes(none)).toEqual(['read']);
  });

  it('refuses what is not text, and an unknown scope by name', () => {
    for (const odd of [3, ['read'], { read: true }, true]) {
      expect(() => parseScopes(odd)).toThrow(InvalidError);
      expect(() => parseScopes(odd)).toThrow('scope must be text');
    }
    for (const unknown of ['reading', 'read:media', 'write:search', 'admin', 'admin:delete', 'READ', 'read:']) {
      let thrown: unknown;
      try {
        parseScopes(`read ${unknown}`);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, unknown).toBeInstanceOf(InvalidError);
      expect(thrown).toMatchObject({ message: `Unknown scope: ${unknown}`, code: 'invalid_scope' });
    }
  });

  it("knows Mastodon's scopes: the four tops, their parts, and the admin ones", () => {
    const read = ['accounts', 'blocks', 'bookmarks', 'favourites', 'filters', 'follows', 'lists', 'mutes'];
    const write = [...read, 'conversations', 'media', 'reports'];
    const expected = [
      'read',
      'write',
      'follow',
      'push',
      'admin:read',
      'admin:write',
      ...[...read, 'notifications', 'search', 'statuses'].map((p) => `read:${p}`),
      ...[...write, 'notifications', 'statuses'].map((p) => `write:${p}`),
    ];
    expect([...KNOWN_SCOPES].sort()).toEqual(expected.sort());
    for (const scope of expected) expect(parseScopes(scope)).toEqual([scope]);
  });
});

describe('covers', () => {
  it('takes the scope itself or its parent, not a sibling, a child or another top', () => {
    expect(covers(['write:statuses'], 'write:statuses')).toBe(true);
    expect(covers(['write'], 'write:statuses')).toBe(true);
    expect(covers(['read'], 'read')).toBe(true);
    expect(covers(['write:media'], 'write:statuses')).toBe(false);
    expect(covers(['write:statuses'], 'write')).toBe(false);
    expect(covers(['read'], 'write:statuses')).toBe(false);
    expect(covers(['read:statuses'], 'read:notifications')).toBe(false);
    expect(covers([], 'read')).toBe(false);
    // Neither read nor write covers the admin scopes.
    expect(covers(['read', 'write'], 'admin:write')).toBe(false);
    expect(covers(['admin:write'], 'admin:write')).toBe(true);
  });

  it('takes `follow` for the follow, block and mute parts of read and write only', () => {
    for (const part of ['read:follows', 'write:follows', 'read:blocks', 'write:blocks', 'read:mutes', 'write:mutes'])
      expect(covers(['follow'], part), part).toBe(true);
    for (const other of ['read:statuses', 'write:statuses', 'read', 'write', 'read:accounts', 'write:lists'])
      expect(covers(['follow'], other), other).toBe(false);
    expect(covers(['read:follows'], 'write:follows')).toBe(false);
  });
});

describe('allowedFor', () => {
  it('allows scopes the app registered or parts of them, and nothing beyond', () => {
    expect(allowedFor(['read', 'write'], ['read:statuses', 'write'])).toBe(true);
    expect(allowedFor(['read'], [])).toBe(true);
    expect(allowedFor(['read'], ['read', 'write:statuses'])).toBe(false);
    expect(allowedFor(['read:statuses'], ['read'])).toBe(false);
    expect(allowedFor(['follow'], ['write:blocks', 'read:mutes'])).toBe(true);
  });
});

describe("the client API's scope guard", () => {
  const person = { id: 'u1', username: 'ann', role: 'member', sessionId: 's1' } as BearerAuth['user'];
  const token = (scopes: string[], user = person): BearerAuth => ({
    user,
    scopes,
    tokenId: 't1',
    app: { id: 'a1', name: 'App', website: null },
  });

  /** What the guard hands Fastify: the refusal, or undefined to go on. */
  function guard(bearer: BearerAuth | null, scope: string, options?: { user?: boolean }): unknown {
    let outcome: unknown = 'not called';
    const done = (error?: unknown) => void (outcome = error);
    needs(scope, options).call(
      undefined as never,
      { bearer } as FastifyRequest,
      {} as FastifyReply,
      done as Parameters<ReturnType<typeof needs>>[2],
    );
    return outcome;
  }

  it('lets a person with the scope or its parent through', () => {
    expect(guard(token(['write:statuses']), 'write:statuses')).toBeUndefined();
    expect(guard(token(['write']), 'write:statuses')).toBeUndefined();
    expect(guard(token(['follow']), 'write:blocks')).toBeUndefined();
  });

  it('answers 401 without a token, 403 without the scope, 422 for an app without a person', () => {
    const none = guard(null, 'read');
    expect(none).toBeInstanceOf(UnauthorizedError);
    expect(none).toMatchObject({ message: TOKEN_INVALID });
    const outside = guard(token(['read']), 'write:statuses');
    expect(outside).toBeInstanceOf(ForbiddenError);
    expect(outside).toMatchObject({ message: SCOPE_MISSING });
    const appOnly = guard(token(['read'], null), 'read');
    expect(appOnly).toBeInstanceOf(HttpError);
    expect(appOnly).toMatchObject({ statusCode: 422, code: 'UnprocessableEntity', message: USER_REQUIRED });
    // Without the scope, an app's own token is refused for the scope first.
    expect(guard(token(['read'], null), 'write')).toBeInstanceOf(ForbiddenError);
  });

  it("takes an app's own token where no person is needed", () => {
    expect(guard(token(['read'], null), 'read', { user: false })).toBeUndefined();
    expect(guard(token(['read'], null), 'read', {})).toBeInstanceOf(HttpError);
    expect(guard(null, 'read', { user: false })).toBeInstanceOf(UnauthorizedError);
  });
});
