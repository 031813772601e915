/** `GET /api/v1/instance` and `/api/v2/instance`: what the apps need to know of this server. */
import { NOTIFICATION_ICON_PATH } from '../../lib/pwa';
import type { FastifyPluginAsync } from 'fastify';
import { ALT_MAX, MESSAGE_MAX, UPLOAD_MAX_BYTES } from '../../lib/limits';
import { siteOf, type ClientServices } from './support';

/** The Mastodon version whose API this one follows, and Posts' own. */
export const COMPATIBLE_VERSION = '4.3.0 (compatible; Posts 0.1.0)';

/** `maxImages`: the photos one post holds (`MAX_POST_IMAGES`, issue 71). */
const configurationOf = (maxImages: number) => ({
  statuses: { max_characters: MESSAGE_MAX, max_media_attachments: maxImages, characters_reserved_per_url: 23 },
  media_attachments: {
    supported_mime_types: ['image/jpeg', 'image/png'],
    image_size_limit: UPLOAD_MAX_BYTES,
    image_matrix_limit: 16_777_216,
    video_size_limit: 0,
    video_frame_rate_limit: 0,
    video_matrix_limit: 0,
    description_limit: ALT_MAX,
  },
  polls: { max_options: 0, max_characters_per_option: 0, min_expiration: 0, max_expiration: 0 },
  accounts: { max_featured_tags: 0, max_pinned_statuses: 0 },
  translation: { enabled: false },
});

export const instanceEndpoints: FastifyPluginAsync<ClientServices> = async (app, { config, push }) => {
  const description = `${config.instanceName}: pictures with a few words, tags, likes and comments.`;
  const contact = { email: config.contactEmail, account: null };
  const configuration = configurationOf(config.maxPostImages);

  app.get('/api/v1/instance', async (request) => {
    const site = siteOf(config, request);
    return {
      uri: new URL(site).host,
      title: config.instanceName,
      short_description: description,
      description,
      email: config.contactEmail,
      version: COMPATIBLE_VERSION,
      urls: { streaming_api: site.replace(/^http/, 'ws') },
      stats: { user_count: 0, status_count: 0, domain_count: 1 },
      thumbnail: null,
      languages: ['en'],
      registrations: true,
      approval_required: false,
      invites_enabled: false,
      configuration,
      contact_account: null,
      rules: [],
    };
  });

  app.get('/api/v2/instance', async (request) => {
    const site = siteOf(config, request);
    return {
      domain: new URL(site).host,
      title: config.instanceName,
      version: COMPATIBLE_VERSION,
      source_url: site,
      description,
      usage: { users: { active_month: 0 } },
      thumbnail: { url: `${site}${NOTIFICATION_ICON_PATH}` },
      icon: [],
      languages: ['en'],
      configuration: {
        ...configuration,
        urls: { streaming: site.replace(/^http/, 'ws') },
        vapid: { public_key: push?.publicKey ?? '' },
      },
      registrations: { enabled: true, approval_required: false, message: null },
      api_versions: { mastodon: 2 },
      contact,
      rules: [],
    };
  });
};
