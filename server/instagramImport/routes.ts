/**
 * Archive imports under `/api/imports/instagram`: `POST /` (multipart `file`: an Instagram archive or
 * a Posts export, streamed to the imports folder, then scanned), `GET /` (the last one), `GET /:id`,
 * `POST /:id/start` (`{ positions, settings? }`: the posts picked, and whether to bring a Posts
 * export's profile settings) and `POST /:id/cancel`.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type Guards, currentUser } from '../auth/guard';
import { InvalidError } from '../domain/errors';
import { HttpError } from '../http/errors';
import { multipartError } from '../http/multipartErrors';
import { errors } from '../http/schemas';
import type { InstagramImportService } from './service';

const MULTIPART_OVERHEAD = 16 * 1024;
const NOT_MULTIPART = 'Send the archive as multipart/form-data in the field "file"';

const postSchema = {
  type: 'object',
  properties: {
    position: { type: 'integer' },
    takenAt: { type: 'string' },
    caption: { type: 'string' },
    photos: { type: 'integer' },
    leftOut: { type: 'integer' },
    status: { type: 'string' },
    error: { type: ['string', 'null'] },
    postId: { type: ['string', 'null'] },
  },
  required: ['position', 'takenAt', 'caption', 'photos', 'leftOut', 'status', 'error', 'postId'],
} as const;
const settingsSchema = {
  type: 'object',
  properties: {
    displayName: { type: ['string', 'null'] },
    description: { type: 'string' },
    fields: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, value: { type: 'string' } },
        required: ['name', 'value'],
      },
    },
    defaultAudience: { type: 'string' },
    approveFollowers: { type: 'boolean' },
    discoverable: { type: 'boolean' },
  },
} as const;
const importSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    kind: { type: 'string', enum: ['instagram', 'posts'] },
    settings: { anyOf: [settingsSchema, { type: 'null' }] },
    state: { type: 'string' },
    total: { type: 'integer' },
    done: { type: 'integer' },
    failed: { type: 'integer' },
    pending: { type: 'integer' },
    posts: { type: 'array', items: postSchema },
    createdAt: { type: 'string' },
    finishedAt: { type: ['string', 'null'] },
  },
  required: [
    'id',
    'kind',
    'settings',
    'state',
    'total',
    'done',
    'failed',
    'pending',
    'posts',
    'createdAt',
    'finishedAt',
  ],
} as const;
const importResponse = { type: 'object', properties: { import: importSchema }, required: ['import'] } as const;
const idParams = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 36 } },
  required: ['id'],
} as const;

export interface InstagramImportRoutesOptions {
  imports: InstagramImportService;
  guards: Guards;
  dir: string;
  maxBytes: number;
}

export const instagramImportRoutes: FastifyPluginAsync<InstagramImportRoutesOptions> = async (
  app,
  { imports, guards, dir, maxBytes },
) => {
  const tooBig = () =>
    new HttpError(413, 'PayloadTooLarge', `An archive may be at most ${Math.floor(maxBytes / 1024 / 1024)} MB`);
  // Encapsulated: only this plugin parses multipart bodies here. fileSize is inclusive.
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 2, fieldSize: 64, parts: 3, headerPairs: 50 },
  });

  /** The archive streamed to a new file of the folder (never whole in memory); its name there. */
  async function receive(request: FastifyRequest): Promise<string> {
    if (!request.isMultipart()) throw new HttpError(415, 'UnsupportedMediaType', NOT_MULTIPART);
    await mkdir(dir, { recursive: true });
    const name = `${randomUUID()}.zip`;
    const file = path.join(dir, name);
    let stored = false;
    try {
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'file' || stored) throw new InvalidError(NOT_MULTIPART);
        await pipeline(part.file, createWriteStream(file));
        if (part.file.truncated) throw tooBig();
        stored = true;
      }
    } catch (error) {
      await rm(file, { force: true });
      throw multipartError(error, tooBig);
    }
    if (!stored) throw new InvalidError('file is required', 'FileMissing');
    return name;
  }

  app.post(
    '/',
    {
      preValidation: [
        ...guards.write,
        async (request) => {
          if (Number(request.headers['content-length']) > maxBytes + MULTIPART_OVERHEAD) throw tooBig();
        },
      ],
      schema: {
        tags: ['imports'],
        summary: 'Upload an Instagram archive or a Posts export (multipart: file): the posts found, to pick from',
        consumes: ['multipart/form-data'],
        response: { 201: importResponse, ...errors(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const name = await receive(request);
      return reply.code(201).send({ import: await imports.fromArchive(currentUser(request), name) });
    },
  );

  app.get(
    '/',
    {
      preValidation: guards.signedIn,
      schema: {
        tags: ['imports'],
        response: {
          200: { type: 'object', properties: { import: { anyOf: [importSchema, { type: 'null' }] } } },
          ...errors(401),
        },
      },
    },
    async (request) => ({ import: await imports.latest(currentUser(request)) }),
  );

  app.get<{ Params: { id: string } }>(
    '/:id',
    {
      preValidation: guards.signedIn,
      schema: { tags: ['imports'], params: idParams, response: { 200: importResponse, ...errors(401, 404) } },
    },
    async (request) => ({ import: await imports.progress(currentUser(request), request.params.id) }),
  );

  app.post<{ Params: { id: string }; Body: { positions?: unknown; settings?: unknown } }>(
    '/:id/start',
    {
      preValidation: guards.write,
      schema: {
        tags: ['imports'],
        summary:
          'Import the posts picked (their positions), and a Posts export’s settings if asked; the others are skipped',
        params: idParams,
        body: {
          type: 'object',
          // `settings` is checked by the service, which says what is wrong with it.
          properties: { positions: { type: 'array', maxItems: 100_000 }, settings: {} },
        },
        response: { 202: importResponse, ...errors(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const { positions, settings } = request.body ?? {};
      const started = await imports.start(currentUser(request), request.params.id, positions, settings);
      return reply.code(202).send({ import: started });
    },
  );

  app.post<{ Params: { id: string } }>(
    '/:id/cancel',
    {
      preValidation: guards.write,
      schema: { tags: ['imports'], params: idParams, response: { 200: importResponse, ...errors(401, 404) } },
    },
    async (request) => ({ import: await imports.cancel(currentUser(request), request.params.id) }),
  );
};
