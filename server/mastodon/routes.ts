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
import { searchEndpoints } from './search';
import { settingsEndpoints } from './settings';
import { statusEndpoints } from './statuses';
import type { ClientStreams } from './streaming';
import { registerStreamingSocket, streamingEndpoints } from './streamingRoutes';
import type { ClientServices } from './support';
import { TOKEN_INVALID, bearerOf, registerClientBodies, registerClientErrors, registerCors } from './http';

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
  settingsEndpoints,
];

export const clientApi: FastifyPluginAsync<ClientApiOptions> = async (app, options) => {
  const { oauth, services, streaming } = options;
  // The OpenAPI document describes `/api/*`'s contract; this API is Mastodon's, documented apart (API.md).
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  registerCors(app);
  registerClientErrors(app);
  await registerClientBodies(app);
  app.decorateRequest('bearer', null);
  app.addHook('onRequest', async (request) => {
    const token = bearerOf(request);
    if (!token) return;
    // A token that was sent but is not (or no longer) valid is refused at once, even where none is needed.
    const auth = await oauth.authenticate(token);
    if (!auth) throw new UnauthorizedError(TOKEN_INVALID);
    request.bearer = auth;
    request.user = auth.user;
  });

  await app.register(oauthTokenRoutes, options);
  for (const endpoints of ENDPOINTS) await app.register(endpoints, services);
  const streamingOptions = { services, oauth, ...streaming };
  await app.register(streamingEndpoints, streamingOptions);
  registerStreamingSocket(app, streamingOptions);

  // Preflights: the CORS hook answers them; these routes only put the paths in this plugin.
  for (const path of ['/oauth/token', '/oauth/revoke'])
    app.options(path, { schema: { hide: true } }, async () => undefined);
  for (const prefix of ['/api/v1/*', '/api/v2/*'])
    app.all(prefix, { schema: { hide: true } }, async (request) => {
      throw new NotFoundError(`No API route ${request.method} ${request.url.split('?')[0]}`, 'RouteNotFound');
    });
};
