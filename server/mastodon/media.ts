/** Uploads as media attachments: `POST /api/v2/media` and `/api/v1/media`, `GET`/`PUT /api/v1/media/:id`. */
import type { FastifyPluginAsync } from 'fastify';
import { type PhotoCrop, cropOfColumn, cropOfFocusText } from '../../lib/photoCrop';
import { altError } from '../../lib/validation';
import { InvalidError, NotFoundError } from '../domain/errors';
import type { MediaService } from '../media/service';
import { needs } from './http';
import { type Site, imageAttachment } from './mappers';
import { type ClientServices, siteOf, tokenUser } from './support';

type MediaBody = { file?: unknown; description?: unknown; focus?: unknown };

const readDescription = (value: unknown): string | null | undefined => {
  if (value === undefined) return undefined;
  if (value !== null && typeof value !== 'string') throw new InvalidError('description must be text');
  const description = value?.trim() || null;
  // Checked before anything is stored, with a post's alt text rule.
  const error = description && altError(description);
  if (error) throw new InvalidError(error, 'InvalidAlt');
  return description;
};

/** Mastodon's focal point, "x,y" from -1 to 1 (y up): where a post taking the upload crops it. */
const readFocus = (value: unknown): PhotoCrop | undefined => {
  if (value === undefined || value === '') return undefined;
  const crop = typeof value === 'string' ? cropOfFocusText(value) : null;
  if (!crop)
    throw new InvalidError(
      'focus must be two numbers from -1 to 1, as "x,y" (for example "0.5,-0.25")',
      'InvalidFocus',
    );
  return crop;
};

async function attachment(site: Site, media: MediaService, ownerId: string, id: string) {
  return (await findAttachment(site, media, ownerId, id)).attachment;
}

async function findAttachment(site: Site, media: MediaService, ownerId: string, id: string) {
  const found = await media.findOwn(ownerId, id);
  if (!found) throw new NotFoundError('Record not found');
  return {
    attachment: imageAttachment(
      site,
      found.row.id,
      found.url,
      found.info,
      found.row.description,
      cropOfColumn(found.row.crop),
    ),
    processing: found.processing,
  };
}

export const mediaEndpoints: FastifyPluginAsync<ClientServices> = async (app, { media, limits, config }) => {
  const upload = [needs('write:media'), limits.uploads];

  for (const url of ['/api/v2/media', '/api/v1/media'])
    app.post<{ Body: MediaBody }>(url, { preValidation: upload }, async (request) => {
      const owner = tokenUser(request).id;
      const body = request.body ?? {};
      if (!Buffer.isBuffer(body.file))
        throw new InvalidError('Send the image as multipart/form-data in the "file" field');
      const description = readDescription(body.description);
      const focus = readFocus(body.focus);
      const stored = await media.upload(owner, 'post', body.file);
      if (description) await media.describe(owner, stored.public_id, description);
      if (focus) await media.placeCrop(owner, stored.public_id, focus);
      // Processed before answering: clients polling GET media/:id find it finished at once.
      return attachment(siteOf(config, request), media, owner, stored.public_id);
    });

  // Mastodon's answer while an attachment is being processed is 206 with `url` null (clients poll
  // until 200): here, while its other sizes are still being written.
  app.get<{ Params: { id: string } }>(
    '/api/v1/media/:id',
    { preValidation: needs('write:media') },
    async (request, reply) => {
      const found = await findAttachment(siteOf(config, request), media, tokenUser(request).id, request.params.id);
      if (found.processing) return reply.code(206).send({ ...found.attachment, url: null });
      return found.attachment;
    },
  );

  app.put<{ Params: { id: string }; Body: MediaBody }>(
    '/api/v1/media/:id',
    { preValidation: upload },
    async (request) => {
      const owner = tokenUser(request).id;
      const site = siteOf(config, request);
      await attachment(site, media, owner, request.params.id);
      const body = request.body ?? {};
      const description = readDescription(body.description);
      const focus = readFocus(body.focus);
      if (description !== undefined) await media.describe(owner, request.params.id, description);
      if (focus) await media.placeCrop(owner, request.params.id, focus);
      return attachment(site, media, owner, request.params.id);
    },
  );
};
