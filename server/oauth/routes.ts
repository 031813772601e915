/**
 * OAuth 2's HTTP side: `POST /api/v1/apps`, the consent page (`GET`/`POST /oauth/authorize`, signed
 * in with the site's own cookies), `POST /oauth/token`, `POST /oauth/revoke`, and Settings' list of
 * authorised apps (`GET`/`DELETE /api/auth/apps`, cookie session).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_COOKIE } from '../auth/cookies';
import { type Guards, currentUser } from '../auth/guard';
import type { AuthService } from '../auth/service';
import type { Config } from '../config';
import { InvalidError } from '../domain/errors';
import { HttpError } from '../http/errors';
import { rateLimit } from '../http/rateLimits';
import { errors } from '../http/schemas';
import { pageSessions } from '../pages/session';
import { registerClientBodies } from '../http/clientBodies';
import { codePage, consentCsp, consentPage, deniedPage, errorPage, staleFormPage } from './consentPage';
import { CONSENT_FORM_PATH, CONSENT_TOKEN_FIELD, consentTokens } from './consentToken';
import { chooseLanguage } from '../../lib/i18n/choose';
import { LANGUAGE_COOKIE } from '../../lib/i18n/languages';
import { type AuthorizationQuery, OAuthError, type OAuthService } from './service';

/** RFC 6749's error answer. */
function oauthRefusal(reply: FastifyReply, error: unknown) {
  if (!(error instanceof OAuthError)) throw error;
  return reply.code(error.status).send({ error: error.oauthError, error_description: error.message });
}

const AUTHORIZE_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

function authorizeFields(source: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of AUTHORIZE_FIELDS) if (typeof source[name] === 'string') fields[name] = source[name] as string;
  return fields;
}

export interface OAuthRoutesOptions {
  oauth: OAuthService;
  auth: AuthService;
  config: Config;
}

/** The token endpoints and app registration: called by apps, with CORS (registered inside the client API). */
export const oauthTokenRoutes: FastifyPluginAsync<OAuthRoutesOptions> = async (app, { oauth, config }) => {
  // Registering apps and buying tokens costs no session: limited per address like sign-ins.
  const perIp = rateLimit(app, 'oauth-ip', config.rateLimits.authPerIpPerMinute, (r) => r.ip);

  app.post<{ Body: Record<string, unknown> }>('/api/v1/apps', { preHandler: perIp }, async (request) => {
    try {
      return await oauth.registerApp(request.body ?? {});
    } catch (error) {
      // Mastodon answers an app it will not register with 422 and "Validation failed: ...".
      if (error instanceof InvalidError)
        throw new HttpError(422, 'UnprocessableEntity', `Validation failed: ${error.message}`);
      throw error;
    }
  });

  app.post<{ Body: Record<string, unknown> }>('/oauth/token', { preHandler: perIp }, async (request, reply) => {
    try {
      return await oauth.token(request.body ?? {});
    } catch (error) {
      return oauthRefusal(reply, error);
    }
  });

  app.post<{ Body: Record<string, unknown> }>('/oauth/revoke', async (request, reply) => {
    try {
      await oauth.revoke(request.body ?? {});
      return {};
    } catch (error) {
      return oauthRefusal(reply, error);
    }
  });
};

/**
 * The consent pages' language: the `lang` cookie (which a member's pages keep in step with their
 * account, lib/pageProps.ts), else `Accept-Language` among the languages offered, else English.
 */
const languageOf = (request: FastifyRequest) =>
  chooseLanguage({
    cookie: request.cookies[LANGUAGE_COOKIE] ?? null,
    acceptLanguage: request.headers['accept-language'] ?? null,
  });

/** The consent page: a person signs in with the site's cookies and approves or denies. */
export const oauthConsentRoutes: FastifyPluginAsync<OAuthRoutesOptions> = async (app, { oauth, auth, config }) => {
  await registerClientBodies(app);
  const viewerOf = pageSessions(app, { auth, config });
  const tokens = consentTokens(config.jwtSecret);
  const html = (reply: FastifyReply, status: number, body: string, csp = consentCsp(null)) =>
    reply
      .code(status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', csp)
      .header('Cache-Control', 'private, no-store')
      .send(body);

  app.get<{ Querystring: AuthorizationQuery }>(
    CONSENT_FORM_PATH,
    { schema: { hide: true } },
    async (request, reply) => {
      let checked;
      try {
        checked = await oauth.authorizationRequest(request.query);
      } catch (error) {
        if (error instanceof OAuthError) return html(reply, 400, errorPage(languageOf(request), error.message));
        throw error;
      }
      const viewer = await viewerOf(request, reply);
      const user = viewer.kind === 'signedIn' ? await auth.authenticate(viewer.accessToken) : null;
      // Sign in first; the login page comes back here.
      if (!user) return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 302);
      return html(
        reply,
        200,
        consentPage({
          language: languageOf(request),
          appName: checked.app.name,
          website: checked.app.website,
          username: user.username,
          scopes: checked.scopes,
          fields: authorizeFields(request.query as Record<string, unknown>),
          token: tokens.tokenFor(user.sessionId, checked.app.clientId),
        }),
        consentCsp(checked.redirectUri),
      );
    },
  );

  app.post<{ Body: Record<string, unknown> }>(CONSENT_FORM_PATH, { schema: { hide: true } }, async (request, reply) => {
    const body = request.body ?? {};
    const fields = authorizeFields(body);
    const user = await auth.authenticate(request.cookies[ACCESS_COOKIE]);
    if (!user) return reply.redirect(`${CONSENT_FORM_PATH}?${new URLSearchParams(fields)}`, 303);
    // Only this session's consent page for this app can decide, whatever Origin the browser sent.
    if (!tokens.matches(body[CONSENT_TOKEN_FIELD], user.sessionId, fields.client_id ?? ''))
      return html(reply, 403, staleFormPage(languageOf(request)));
    try {
      if (body.decision !== 'approve') {
        const denied = await oauth.deny(fields);
        if (denied) return reply.redirect(denied, 303);
        const { app: client } = await oauth.authorizationRequest(fields);
        return html(reply, 200, deniedPage(languageOf(request), client.name));
      }
      const { code, redirect } = await oauth.approve(user, fields);
      if (redirect) return reply.redirect(redirect, 303);
      const { app: client } = await oauth.authorizationRequest(fields);
      return html(reply, 200, codePage(languageOf(request), client.name, code));
    } catch (error) {
      if (error instanceof OAuthError) return html(reply, 400, errorPage(languageOf(request), error.message));
      throw error;
    }
  });
};

const appSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    website: { type: ['string', 'null'] },
    scopes: { type: 'array', items: { type: 'string' } },
    authorizedAt: { type: 'string' },
  },
} as const;

/** Settings: the apps this person authorised, and revoking one. */
export const authorizedAppsRoutes: FastifyPluginAsync<{ oauth: OAuthService; guards: Guards }> = async (
  app,
  { oauth, guards },
) => {
  app.get(
    '/apps',
    {
      preValidation: guards.signedIn,
      schema: { tags: ['auth'], response: { 200: { type: 'array', items: appSchema }, ...errors(401) } },
    },
    async (request) => oauth.listApps(currentUser(request)),
  );
  app.delete<{ Params: { id: string } }>(
    '/apps/:id',
    {
      preValidation: guards.accountWrite,
      schema: {
        tags: ['auth'],
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] },
        response: { 204: { type: 'null' }, ...errors(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      await oauth.revokeApp(currentUser(request), request.params.id);
      return reply.code(204).send();
    },
  );
};
