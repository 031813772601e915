/**
 * Mastodon CSV lists under `/api/users`: `GET /me/export/{follows,blocks,mutes}.csv`, and the
 * imports: `POST /me/list-imports` (multipart: `type`, `mode`, `file`), `GET /me/list-imports`
 * (the last ones) and `GET /me/list-imports/:id` (one, with its counts).
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ACCOUNT_LIST_KINDS, ACCOUNT_LIST_MAX_BYTES, ACCOUNT_LIST_MODES } from '../../lib/limits';
import { type Guards, currentUser } from '../auth/guard';
import { InvalidError } from '../domain/errors';
import { HttpError } from '../http/errors';
import { multipartError } from '../http/multipartErrors';
import { errors } from '../http/schemas';
import { EXPORT_FILE_NAMES, type ListKind } from './csv';
import type { AccountListsService } from './service';

/** Room for the multipart framing and the two small fields around a file just under the limit. */
const MULTIPART_OVERHEAD = 16 * 1024;
const tooBig = () =>
  new HttpError(413, 'PayloadTooLarge', `A list may be at most ${ACCOUNT_LIST_MAX_BYTES / 1024 / 1024} MB`);
const NOT_MULTIPART = 'Send the list as multipart/form-data with the fields "type", "mode" and "file"';
const TYPE_MESSAGE = `type must be one of: ${ACCOUNT_LIST_KINDS.join(', ')}`;
const MODE_MESSAGE = `mode must be one of: ${ACCOUNT_LIST_MODES.join(', ')}`;

function oneOf<T extends string>(allowed: readonly T[], value: unknown, message: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw new InvalidError(message);
  return value as T;
}

async function readForm(request: FastifyRequest) {
  if (!request.isMultipart()) throw new HttpError(415, 'UnsupportedMediaType', NOT_MULTIPART);
  const fields: Record<string, string> = {};
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new InvalidError('The list must be sent in the "file" field');
        bytes = await part.toBuffer();
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (error) {
    throw multipartError(error, tooBig);
  }
  const type = oneOf(ACCOUNT_LIST_KINDS, fields.type, TYPE_MESSAGE);
  const mode = oneOf(ACCOUNT_LIST_MODES, fields.mode ?? 'merge', MODE_MESSAGE);
  if (!bytes) throw new InvalidError('file is required', 'FileMissing');
  return { type, mode, bytes };
}

const failureSchema = {
  type: 'object',
  properties: { line: { type: 'integer' }, address: { type: 'string' }, error: { type: 'string' } },
  required: ['line', 'address', 'error'],
} as const;
const importSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    type: { type: 'string' },
    mode: { type: 'string' },
    state: { type: 'string' },
    total: { type: 'integer' },
    done: { type: 'integer' },
    failed: { type: 'integer' },
    pending: { type: 'integer' },
    failures: { type: 'array', items: failureSchema },
    createdAt: { type: 'string' },
    finishedAt: { type: ['string', 'null'] },
  },
  required: [
    'id',
    'type',
    'mode',
    'state',
    'total',
    'done',
    'failed',
    'pending',
    'failures',
    'createdAt',
    'finishedAt',
  ],
} as const;
const importResponse = { type: 'object', properties: { import: importSchema }, required: ['import'] } as const;

export interface AccountListsRoutesOptions {
  lists: AccountListsService;
  guards: Guards;
}

export const accountListsRoutes: FastifyPluginAsync<AccountListsRoutesOptions> = async (app, { lists, guards }) => {
  // Encapsulated: only this plugin parses multipart bodies here. fileSize is inclusive.
  await app.register(multipart, {
    limits: { fileSize: ACCOUNT_LIST_MAX_BYTES, files: 1, fields: 5, fieldSize: 64, parts: 10, headerPairs: 50 },
  });

  for (const kind of ACCOUNT_LIST_KINDS) {
    app.get(
      `/me/export/${kind}.csv`,
      { preValidation: guards.signedIn, schema: { tags: ['users'], response: errors(401) } },
      async (request, reply) => {
        const csv = await lists.exportList(currentUser(request), kind satisfies ListKind);
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${EXPORT_FILE_NAMES[kind]}"`)
          .header('Cache-Control', 'no-store')
          .send(csv);
      },
    );
  }

  app.post(
    '/me/list-imports',
    {
      preValidation: [
        ...guards.write,
        async (request) => {
          if (Number(request.headers['content-length']) > ACCOUNT_LIST_MAX_BYTES + MULTIPART_OVERHEAD) throw tooBig();
        },
      ],
      schema: {
        tags: ['users'],
        summary:
          'Import a Mastodon CSV list (multipart: type = follows | blocks | mutes, mode = merge | overwrite, file)',
        consumes: ['multipart/form-data'],
        response: { 202: importResponse, ...errors(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const { type, mode, bytes } = await readForm(request);
      const started = await lists.startImport(currentUser(request), type, mode, bytes);
      return reply.code(202).send({ import: started });
    },
  );

  app.get(
    '/me/list-imports',
    {
      preValidation: guards.signedIn,
      schema: {
        tags: ['users'],
        response: {
          200: { type: 'object', properties: { imports: { type: 'array', items: importSchema } } },
          ...errors(401),
        },
      },
    },
    async (request) => ({ imports: await lists.latest(currentUser(request)) }),
  );

  app.get<{ Params: { id: string } }>(
    '/me/list-imports/:id',
    {
      preValidation: guards.signedIn,
      schema: {
        tags: ['users'],
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 36 } }, required: ['id'] },
        response: { 200: importResponse, ...errors(401, 404) },
      },
    },
    async (request) => ({ import: await lists.progress(currentUser(request), request.params.id) }),
  );
};
