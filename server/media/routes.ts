/**
 * `POST /api/uploads` (the image-hosting protocol the client speaks: multipart `file` +
 * `upload_preset`) and `GET /media/*` (stored variants, when they live on the local disk; an S3
 * bucket or its CDN serves its own).
 */
import { open } from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_QUEUED_PER_USER, UPLOAD_PRESETS, type UploadPreset } from '../../lib/limits';
import { TEXTS } from '../../lib/texts';
import { currentUser, requireUser } from '../auth/guard';
import type { Config } from '../config';
import { InvalidError, NotFoundError } from '../domain/errors';
import { HttpError } from '../http/errors';
import { rateLimit } from '../http/rateLimits';
import { multipartError } from '../http/multipartErrors';
import { errors } from '../http/schemas';
import { CONTENT_TYPES, queueFullError, type VariantFormat } from './pipeline';
import { type MediaService, pendingVariants } from './service';
import type { MediaStorage } from './storage';

const uploadResultSchema = {
  type: 'object',
  properties: {
    secure_url: { type: 'string' },
    public_id: { type: 'string' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    format: { type: 'string' },
    bytes: { type: 'integer' },
    thumbhash: { type: ['string', 'null'] },
  },
  required: ['secure_url', 'public_id', 'width', 'height', 'format', 'bytes', 'thumbhash'],
} as const;

/** Room for the multipart framing and the preset field around a file just under the limit. */
const MULTIPART_OVERHEAD = 16 * 1024;

const tooBig = () => new HttpError(413, 'PayloadTooLarge', TEXTS.fileTooBig);
const NOT_MULTIPART = 'Send the image as multipart/form-data with a "file" field and an "upload_preset" field';
const PRESET_MESSAGE = `upload_preset must be one of: ${UPLOAD_PRESETS.join(', ')}`;

function presetOf(value: unknown): UploadPreset {
  if (typeof value !== 'string' || !(UPLOAD_PRESETS as readonly string[]).includes(value))
    throw new InvalidError(PRESET_MESSAGE);
  return value as UploadPreset;
}

/** A declared length already over the limit is refused before a byte of the body is read. */
async function refuseDeclaredOversize(request: FastifyRequest): Promise<void> {
  const declared = Number(request.headers['content-length']);
  if (declared > UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD) throw tooBig();
}

/**
 * Each person's uploads being read or processed by this process: one past UPLOAD_MAX_QUEUED_PER_USER
 * is refused before its body is read. The image queue's own check comes only after the body, so an
 * album's twenty files sent at once were all held in memory before nineteen were refused (issue 71).
 */
function uploadsAtOnce() {
  const inFlight = new Map<string, number>();
  return async function enter(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const id = currentUser(request).id;
    const count = inFlight.get(id) ?? 0;
    if (count >= UPLOAD_MAX_QUEUED_PER_USER) throw queueFullError();
    inFlight.set(id, count + 1);
    // A response closes once sent, and also when its client went away mid-body.
    reply.raw.once('close', () => {
      const rest = inFlight.get(id)! - 1;
      if (rest > 0) inFlight.set(id, rest);
      else inFlight.delete(id);
    });
  };
}

/** Reads the form: the preset may come before or after the file. The file is held in memory (under 4 MB). */
async function readUpload(request: FastifyRequest): Promise<{ preset: UploadPreset; bytes: Buffer }> {
  if (!request.isMultipart()) throw new HttpError(415, 'UnsupportedMediaType', NOT_MULTIPART);
  let preset: UploadPreset | undefined;
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new InvalidError('The image must be sent in the "file" field');
        // Past the limit the rest is read and dropped, never kept: memory stays under 4 MB.
        bytes = await part.toBuffer();
      } else if (part.fieldname === 'upload_preset') {
        preset = presetOf(part.value);
      }
    }
  } catch (error) {
    throw multipartError(error, tooBig);
  }
  if (!bytes) throw new InvalidError('file is required');
  if (!preset) throw new InvalidError(PRESET_MESSAGE);
  return { preset, bytes };
}

export interface MediaRoutesOptions {
  config: Config;
  media: MediaService;
  storage: MediaStorage;
}

const uploadRoutes: FastifyPluginAsync<MediaRoutesOptions> = async (app, { config, media }) => {
  // Encapsulated: only this plugin parses multipart bodies. fileSize is inclusive, so a file
  // of exactly UPLOAD_MAX_BYTES trips it. Tiny field limits: the only field is the preset.
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES - 1, files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 50 },
  });
  const perUser = rateLimit(app, 'uploads', config.rateLimits.uploadsPerUserPerMinute, (r) => r.user?.id ?? null);
  const uploadAtOnce = uploadsAtOnce();

  app.post(
    '/api/uploads',
    {
      // onRequest rather than preHandler: refusals happen before any of the body is read.
      onRequest: [requireUser, perUser, refuseDeclaredOversize, uploadAtOnce],
      schema: {
        tags: ['media'],
        summary: 'Upload a JPEG or PNG image (multipart: file, upload_preset = avatar | post | banner)',
        consumes: ['multipart/form-data'],
        security: [{ session: [] }],
        response: { 201: uploadResultSchema, ...errors(400, 401, 413, 415, 429, 503) },
      },
    },
    async (request, reply) => {
      const { preset, bytes } = await readUpload(request);
      const result = await media.upload(currentUser(request).id, preset, bytes);
      return reply.code(201).send(result);
    },
  );
};

/** Keys are server-made (`post/<uuid>/1080.webp`): anything else, `..` included, is not a file of ours. */
const MEDIA_KEY = /^(?:[A-Za-z0-9_-]+\/)*[A-Za-z0-9_-]+\.(webp|jpg|png)$/;

function mediaFileRoute(app: FastifyInstance, root: string): void {
  const rootDir = path.resolve(root);
  app.get<{ Params: { '*': string } }>(
    '/media/*',
    {
      schema: { tags: ['media'], summary: 'A stored image variant (immutable: a new upload gets a new URL)' },
    },
    async (request, reply) => {
      const key = request.params['*'];
      const match = MEDIA_KEY.exec(key);
      const file = path.resolve(rootDir, key);
      if (!match || !file.startsWith(rootDir + path.sep)) throw new NotFoundError('Media not found');
      // Open before answering so a missing file is a clean 404, not a failed stream. A variant of
      // an upload that has just answered may still be being written: wait for it.
      let handle = await open(file, 'r').catch(() => null);
      const pending = handle ? undefined : pendingVariants(key);
      if (pending) {
        await pending;
        handle = await open(file, 'r').catch(() => null);
      }
      const stats = handle && (await handle.stat());
      if (!handle || !stats?.isFile()) {
        await handle?.close();
        throw new NotFoundError('Media not found');
      }
      return reply
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Length', stats.size)
        .type(CONTENT_TYPES[match[1] as VariantFormat])
        .send(handle.createReadStream());
    },
  );
}

export const mediaRoutes: FastifyPluginAsync<MediaRoutesOptions> = async (app, options) => {
  await app.register(uploadRoutes, options);
  const { root } = options.storage as { root?: unknown };
  // Other drivers (S3, CDN) serve their files themselves.
  if (typeof root === 'string') mediaFileRoute(app, root);
};
