/**
 * OAuth 2 for the Mastodon client API (issue 33): apps, the consent's authorization codes (with
 * PKCE S256), access tokens, revocation, and the user behind a bearer token.
 *
 * A person's token owns a session row: the bearer check is the cookie's own session check
 * (`findSessionUser`: live, unexpired, user not suspended), so a password change, "sign out
 * everywhere", a suspension or a deletion ends app tokens as they end sign-ins, and the device list
 * in Settings shows (and can end) each app.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { APP_SESSION_PREFIX } from '../../lib/userAgent';
import { setBounded } from '../cache/bounded';
import type { CacheRegistry } from '../cache/registry';
import type { SessionsRepository } from '../auth/repository';
import type { SessionCache } from '../auth/sessionCache';
import type { Transactional } from '../db/repository';
import { InvalidError, NotFoundError } from '../domain/errors';
import { isUuid, newId, nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import type { OAuthRepository } from './repository';
import { OOB_REDIRECT, readRedirectUris, redirectUriProblem } from './redirectUris';
import { allowedFor, parseScopes } from './scopes';

const CODE_TTL_MS = 10 * 60 * 1000;
/** Mastodon's tokens do not expire; the session behind one lasts ten years unless something ends it. */
const APP_SESSION_TTL_MS = 10 * 365 * 24 * 60 * 60 * 1000;
/** A token is never refreshed, so its session is marked used as it is used: at most once an hour. */
const MARK_USED_EVERY_MS = 60 * 60 * 1000;
const NAME_MAX = 200;
const URL_MAX = 2000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const secret = () => randomBytes(32).toString('base64url');
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What a bearer token stands for: its user (null for an app's own token), scopes and app. */
export interface BearerAuth {
  user: AuthUser | null;
  scopes: string[];
  tokenId: string;
  app: { id: string; name: string; website: string | null };
}

/** An OAuth refusal: `error` is RFC 6749's code, the description is for people. */
export class OAuthError extends InvalidError {
  constructor(
    readonly oauthError: string,
    description: string,
    readonly status = 400,
  ) {
    super(description, oauthError);
  }
}

export interface AppInput {
  client_name?: unknown;
  redirect_uris?: unknown;
  scopes?: unknown;
  website?: unknown;
}

export interface AuthorizationQuery {
  response_type?: unknown;
  client_id?: unknown;
  redirect_uri?: unknown;
  scope?: unknown;
  state?: unknown;
  code_challenge?: unknown;
  code_challenge_method?: unknown;
}

export interface TokenInput {
  grant_type?: unknown;
  code?: unknown;
  redirect_uri?: unknown;
  client_id?: unknown;
  client_secret?: unknown;
  code_verifier?: unknown;
  scope?: unknown;
}

export interface OAuthServiceDeps {
  data: Transactional<{ oauth: OAuthRepository; sessions: SessionsRepository }>;
  /** The session cache the cookie check uses: it forgets revoked sessions on their events. */
  checked: Pick<SessionCache, 'known' | 'check'>;
  publish: PublishEvent;
  caches: CacheRegistry;
}

type TokenFacts = Omit<BearerAuth, 'user'> & { userId: string | null; sessionId: string | null };

export function oauthService({ data, checked, publish, caches }: OAuthServiceDeps) {
  // A token's scopes and app never change: kept beside the session cache, which says it is still live.
  const facts = caches.keyed<string, TokenFacts>({ name: 'token_facts', ttlMs: APP_SESSION_TTL_MS, max: 10_000 });
  const markedUsedAt = new Map<string, number>();

  const markDue = (sessionId: string, nowMs: number) =>
    nowMs - (markedUsedAt.get(sessionId) ?? -Infinity) >= MARK_USED_EVERY_MS;

  /** Settings' device list shows when a token was last used (a write once an hour per session and process). */
  async function markUsed(sessionId: string, nowMs: number): Promise<void> {
    if (!markDue(sessionId, nowMs)) return;
    setBounded(markedUsedAt, sessionId, nowMs, 10_000);
    await data.sessions.touchSession(sessionId, new Date(nowMs).toISOString());
  }

  async function clientOf(clientId: unknown, clientSecret: unknown, secretRequired: boolean) {
    if (typeof clientId !== 'string' || !clientId) throw new OAuthError('invalid_client', 'client_id is required', 401);
    const app = await data.oauth.findAppByClientId(clientId);
    if (!app) throw new OAuthError('invalid_client', 'Client authentication failed due to unknown client', 401);
    if (typeof clientSecret === 'string' && clientSecret) {
      if (!sameHash(sha256(clientSecret), app.client_secret_hash))
        throw new OAuthError('invalid_client', 'Client authentication failed: wrong client_secret', 401);
    } else if (secretRequired) {
      throw new OAuthError('invalid_client', 'client_secret is required', 401);
    }
    return app;
  }

  /** Checks an authorization request; what the consent page shows and then approves. */
  async function authorizationRequest(query: AuthorizationQuery) {
    if (query.response_type !== 'code') throw new OAuthError('unsupported_response_type', 'response_type must be code');
    const app = await clientOf(query.client_id, undefined, false);
    const redirectUri = typeof query.redirect_uri === 'string' ? query.redirect_uri : '';
    if (!app.redirect_uris.split('\n').includes(redirectUri) || redirectUriProblem(redirectUri) !== null)
      throw new OAuthError('invalid_redirect_uri', 'The redirect uri included is not valid');
    const scopes = query.scope === undefined || query.scope === '' ? app.scopes.split(' ') : parseScopes(query.scope);
    if (!allowedFor(app.scopes.split(' '), scopes))
      throw new OAuthError('invalid_scope', 'The requested scope is invalid, unknown, or malformed');
    let codeChallenge: string | null = null;
    if (query.code_challenge !== undefined && query.code_challenge !== '') {
      if (query.code_challenge_method !== 'S256')
        throw new OAuthError('invalid_request', 'code_challenge_method must be S256');
      if (typeof query.code_challenge !== 'string' || !/^[A-Za-z0-9_-]{43,128}$/.test(query.code_challenge))
        throw new OAuthError('invalid_request', 'code_challenge must be a base64url SHA-256');
      codeChallenge = query.code_challenge;
    }
    const state = typeof query.state === 'string' ? query.state.slice(0, 1000) : null;
    return {
      app: { id: app.id, name: app.name, website: app.website, clientId: app.client_id },
      scopes,
      redirectUri,
      state,
      codeChallenge,
    };
  }

  async function issueToken(appId: string, userId: string | null, scopes: string[], sessionLabel: string) {
    const token = secret();
    const now = nowIso();
    await data.transaction(async (trx) => {
      let sessionId: string | null = null;
      if (userId) {
        sessionId = newId();
        await trx.sessions.insertSession({
          id: sessionId,
          user_id: userId,
          created_at: now,
          expires_at: new Date(Date.now() + APP_SESSION_TTL_MS).toISOString(),
          revoked_at: null,
          user_agent: sessionLabel,
          last_used_at: now,
        });
      }
      await trx.oauth.insertToken({
        id: newId(),
        token_hash: sha256(token),
        app_id: appId,
        user_id: userId,
        session_id: sessionId,
        scopes: scopes.join(' '),
        created_at: now,
        revoked_at: null,
      });
    });
    return {
      access_token: token,
      token_type: 'Bearer',
      scope: scopes.join(' '),
      created_at: Math.floor(Date.parse(now) / 1000),
    };
  }

  /** Ends tokens and the sessions they own, and tells every instance's caches. */
  async function revokeWhere(where: Parameters<OAuthRepository['revokeToken']>[0]) {
    const now = nowIso();
    const revoked = await data.transaction(async (trx) => {
      const rows = await trx.oauth.revokeToken(where, now);
      for (const row of rows) if (row.session_id) await trx.sessions.revokeSession(row.session_id, now);
      return rows;
    });
    for (const row of revoked)
      if (row.session_id && row.user_id)
        publish({ type: 'SessionRevoked', userId: row.user_id, sessionId: row.session_id });
    return revoked.length;
  }

  return {
    /** `POST /api/v1/apps`: the only time the client secret is shown. */
    async registerApp(input: AppInput) {
      const name = typeof input.client_name === 'string' ? input.client_name.trim() : '';
      if (!name) throw new InvalidError("client_name can't be blank");
      if (name.length > NAME_MAX) throw new InvalidError(`client_name must be at most ${NAME_MAX} characters`);
      const redirectUris = readRedirectUris(input.redirect_uris);
      const scopes = parseScopes(input.scopes);
      let website: string | null = null;
      if (typeof input.website === 'string' && input.website.trim()) {
        website = input.website.trim();
        if (website.length > URL_MAX || !/^https?:\/\//.test(website))
          throw new InvalidError('website must be an http(s) URL');
      }
      const clientId = secret();
      const clientSecret = secret();
      const id = newId();
      await data.oauth.insertApp({
        id,
        client_id: clientId,
        client_secret_hash: sha256(clientSecret),
        name,
        website,
        redirect_uris: redirectUris.join('\n'),
        scopes: scopes.join(' '),
        created_at: nowIso(),
      });
      return {
        id,
        name,
        website,
        scopes,
        redirect_uri: redirectUris.join('\n'),
        redirect_uris: redirectUris,
        client_id: clientId,
        client_secret: clientSecret,
        client_secret_expires_at: 0,
        vapid_key: '',
      };
    },

    authorizationRequest,

    /** The person approved: a single-use code, and where to send it. */
    async approve(user: AuthUser, query: AuthorizationQuery): Promise<{ code: string; redirect: string | null }> {
      const request = await authorizationRequest(query);
      const code = secret();
      const now = Date.now();
      await data.oauth.insertCode({
        code_hash: sha256(code),
        app_id: request.app.id,
        user_id: user.id,
        redirect_uri: request.redirectUri,
        scopes: request.scopes.join(' '),
        code_challenge: request.codeChallenge,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + CODE_TTL_MS).toISOString(),
        used_at: null,
      });
      if (request.redirectUri === OOB_REDIRECT) return { code, redirect: null };
      const url = new URL(request.redirectUri);
      url.searchParams.set('code', code);
      if (request.state !== null) url.searchParams.set('state', request.state);
      return { code, redirect: url.toString() };
    },

    /** The person refused: where to tell the app so (RFC 6749 4.1.2.1). */
    async deny(query: AuthorizationQuery): Promise<string | null> {
      const request = await authorizationRequest(query);
      if (request.redirectUri === OOB_REDIRECT) return null;
      const url = new URL(request.redirectUri);
      url.searchParams.set('error', 'access_denied');
      if (request.state !== null) url.searchParams.set('state', request.state);
      return url.toString();
    },

    /** `POST /oauth/token`. */
    async token(input: TokenInput) {
      if (input.grant_type === 'client_credentials') {
        const app = await clientOf(input.client_id, input.client_secret, true);
        const scopes = input.scope ? parseScopes(input.scope) : app.scopes.split(' ');
        if (!allowedFor(app.scopes.split(' '), scopes))
          throw new OAuthError('invalid_scope', 'The requested scope is invalid, unknown, or malformed');
        return issueToken(app.id, null, scopes, '');
      }
      if (input.grant_type !== 'authorization_code')
        throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or client_credentials');
      // A public client (no secret) must prove the code is its own with PKCE.
      const app = await clientOf(input.client_id, input.client_secret, typeof input.code_verifier !== 'string');
      if (typeof input.code !== 'string' || !input.code) throw new OAuthError('invalid_request', 'code is required');
      const code = await data.oauth.claimCode(sha256(input.code), nowIso());
      const invalidGrant = () =>
        new OAuthError(
          'invalid_grant',
          'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
        );
      if (!code || code.app_id !== app.id || code.redirect_uri !== input.redirect_uri) throw invalidGrant();
      if (code.code_challenge !== null) {
        if (typeof input.code_verifier !== 'string') throw invalidGrant();
        const challenge = createHash('sha256').update(input.code_verifier).digest('base64url');
        if (!sameHash(challenge, code.code_challenge)) throw invalidGrant();
      } else if (typeof input.client_secret !== 'string' || !input.client_secret) {
        throw invalidGrant();
      }
      return issueToken(app.id, code.user_id, code.scopes.split(' '), `${APP_SESSION_PREFIX}${app.name}`);
    },

    /** `POST /oauth/revoke` (RFC 7009): the app's own token only; an unknown token is no error. */
    async revoke(input: { client_id?: unknown; client_secret?: unknown; token?: unknown }): Promise<void> {
      const app = await clientOf(input.client_id, input.client_secret, true);
      if (typeof input.token !== 'string' || !input.token) throw new OAuthError('invalid_request', 'token is required');
      await revokeWhere({ tokenHash: sha256(input.token), appId: app.id });
    },

    /**
     * `authenticate`'s answer when the token was checked lately (no statement), else undefined: the
     * client API's hook then goes on without waiting for a promise.
     */
    knownToken(token: string): BearerAuth | undefined {
      const known = facts.peek(token);
      const nowMs = Date.now();
      // A token due to be marked used takes the awaited way (`authenticate`), which writes it.
      if (!known?.sessionId || markDue(known.sessionId, nowMs)) return undefined;
      const user = checked.known(token);
      return user ? { ...known, user } : undefined;
    },

    /** The user, scopes and app behind a bearer token; null for an unknown, revoked or dead one. */
    async authenticate(token: string): Promise<BearerAuth | null> {
      const nowMs = Date.now();
      const known = facts.peek(token);
      if (known?.sessionId) {
        const user = checked.known(token);
        if (user) {
          await markUsed(known.sessionId, nowMs);
          return { ...known, user };
        }
      }
      const row = await data.oauth.findToken(sha256(token));
      if (!row) return null;
      const fact = {
        scopes: row.scopes.split(' '),
        tokenId: row.id,
        app: { id: row.app_id, name: row.app_name, website: row.app_website },
        userId: row.user_id,
        sessionId: row.session_id,
      };
      if (!row.session_id || !row.user_id) return { ...fact, user: null };
      const { session_id: sessionId, user_id: userId } = row;
      const user = await checked.check(token, async () => {
        const sessionRow = await data.sessions.findSessionUser(sessionId, userId, new Date(nowMs).toISOString());
        if (!sessionRow) return undefined;
        const sessionUser: AuthUser = {
          id: sessionRow.id,
          username: sessionRow.username,
          role: sessionRow.role,
          sessionId: sessionRow.session_id,
        };
        return { user: sessionUser, expiresAtMs: nowMs + APP_SESSION_TTL_MS };
      });
      if (!user) return null;
      facts.put(token, fact);
      await markUsed(sessionId, nowMs);
      return { ...fact, user };
    },

    /** Settings: the apps this person has authorised. */
    async listApps(user: AuthUser) {
      const rows = await data.oauth.listUserApps(user.id, nowIso());
      const byApp = new Map<
        string,
        { id: string; name: string; website: string | null; scopes: string[]; authorizedAt: string }
      >();
      for (const row of rows) {
        const seen = byApp.get(row.id);
        const scopes = row.scopes.split(' ');
        if (seen) {
          seen.scopes = [...new Set([...seen.scopes, ...scopes])];
          if (row.created_at < seen.authorizedAt) seen.authorizedAt = row.created_at;
          continue;
        }
        byApp.set(row.id, {
          id: row.id,
          name: row.name,
          website: row.website,
          scopes,
          authorizedAt: row.created_at,
        });
      }
      return [...byApp.values()];
    },

    /** Settings: every token this person gave the app ends now. */
    async revokeApp(user: AuthUser, appId: string): Promise<void> {
      if (!isUuid(appId)) throw new InvalidError('App id must be a UUID');
      if ((await revokeWhere({ appId, userId: user.id })) === 0)
        throw new NotFoundError('App not found', 'AppNotFound');
    },
  };
}

export type OAuthService = ReturnType<typeof oauthService>;
