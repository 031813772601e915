/**
 * The Mastodon client API (issue 33): `/api/v1`, `/api/v2` and the OAuth token endpoints, as an
 * adapter over the same services as `/api/*`. This plugin sets the conventions (bearer tokens,
 * CORS, bodies, `{ error }`); the endpoints are in the files beside it.
 */
import type { FastifyPluginAsync } from 'fastify';
import { NotFoundError, UnauthorizedError } from '../domain/errors';
import type { OAuthService } from '../oauth/service';
import { type OAuthRoutesOptions, oauthTokenRoutes } from '../oauth/routes';
import { accountEndpoints, relationshipEndpoints } from './accounts';
import { instanceEndpoints } from './instance';
import { mediaEndpoints } from './media';
import { notificationEndpoints } from './notifications';
import { pushEndpoints } from './push';
import { searchEndpoints } from './search';
import { settingsEndpoints } from './settings';
import { statusEndpoints } from './statuses';
import { tagEndpoints } from './tags';
import { timelineEndpoints } from './timelines';
import { trendEndpoints } from './trends';
import type { ClientStreams } from './streaming';
import { registerStreamingSocket, streamingEndpoints } from './streamingRoutes';
import type { ClientServices } from './support';
import { registerClientBodies } from '../http/clientBodies';
import { TOKEN_INVALID, bearerOf, registerClientErrors, registerCors } from './http';

export interface ClientApiOptions extends OAuthRoutesOptions {
  oauth: OAuthService;
  services: ClientServices;
  /** The streaming API's connections (streaming.ts) and their heartbeat. */
  streaming: { streams: ClientStreams; heartbeatMs: number };
}

const ENDPOINTS: FastifyPluginAsync<ClientServices>[] = [
  instanceEndpoints,
  accountEndpoints,
  relationshipEndpoints,
  statusEndpoints,
  mediaEndpoints,
  notificationEndpoints,
  searchEndpoints,
  tagEndpoints,
  settingsEndpoints,
  pushEndpoints,
];

export const clientApi: FastifyPluginAsync<ClientApiOptions> = async (app, options) => {
  const { oauth, services, streaming } = options;
  // The OpenAPI document describes `/api/*`'s contract; this API is Mastodon's, documented apart (API.md).
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  registerCors(app);
  registerClientErrors(app);
  app.decorateRequest('bearer', null);
  // Callback style, not async: a token checked lately is known at once, without a promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    const token = bearerOf(request);
    if (!token) return done();
    const known = oauth.knownToken(token);
    if (known) {
      request.bearer = known;
      request.user = known.user;
      return done();
    }
    // A token that was sent but is not (or no longer) valid is refused at once, even where none is needed.
    oauth.authenticate(token).then((auth) => {
      if (!auth) return done(new UnauthorizedError(TOKEN_INVALID));
      request.bearer = auth;
      request.user = auth.user;
      done();
    }, done);
  });

  // The timelines, the trends and the streams take no body: apart from the bodies' parsers, whose
  // hooks every request under them passes.
  await app.register(timelineEndpoints, services);
  await app.register(trendEndpoints, services);
  const streamingOptions = { services, oauth, ...streaming };
  await app.register(streamingEndpoints, streamingOptions);
  registerStreamingSocket(app, streamingOptions);
  await app.register(async (withBodies) => {
    await registerClientBodies(withBodies);
    await withBodies.register(oauthTokenRoutes, options);
    for (const endpoints of ENDPOINTS) await withBodies.register(endpoints, services);

    // Preflights: the CORS hook answers them; these routes only put the paths in this plugin.
    for (const path of ['/oauth/token', '/oauth/revoke'])
      withBodies.options(path, { schema: { hide: true } }, async () => undefined);
    for (const prefix of ['/api/v1/*', '/api/v2/*'])
      withBodies.all(prefix, { schema: { hide: true } }, async (request) => {
        throw new NotFoundError(`No API route ${request.method} ${request.url.split('?')[0]}`, 'RouteNotFound');
      });
  });
};
