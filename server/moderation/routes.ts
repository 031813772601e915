import type { FastifyPluginAsync } from 'fastify';
import { REMOTE_USERNAME_MAX } from '../../lib/limits';
import type { ReportAction } from '../../lib/types';
import { type Guards, currentUser, requireAdmin } from '../auth/guard';
import { type PageQuery, pageQuerySchema, readPage, sendPage } from '../http/paging';
import { errors } from '../http/schemas';
import type { LimitCheck } from '../http/rateLimits';
import {
  type ReportInput,
  type ModerationService,
  REPORT_ACTIONS,
  REPORT_REASONS,
  REPORT_TARGET_TYPES,
} from './service';

const text = { type: 'string' } as const;
const nullableText = { type: ['string', 'null'] } as const;
const reportSchema = {
  type: 'object',
  properties: {
    id: text,
    targetType: text,
    targetId: text,
    reason: text,
    note: text,
    status: text,
    reporter: text,
    createdAt: text,
    resolvedAt: nullableText,
    resolvedBy: nullableText,
    resolution: nullableText,
    target: {
      type: ['object', 'null'],
      properties: {
        type: text,
        _id: text,
        commentId: text,
        postId: text,
        message: text,
        image: text,
        alt: text,
        creator: text,
        username: text,
        avatar: nullableText,
        description: text,
        suspended: { type: 'boolean' },
      },
    },
  },
} as const;
const logEntrySchema = {
  type: 'object',
  properties: {
    id: text,
    admin: text,
    action: text,
    targetType: text,
    targetId: text,
    target: text,
    note: text,
    createdAt: text,
  },
} as const;
const adminUserSchema = {
  type: 'object',
  properties: {
    username: text,
    role: text,
    avatar: nullableText,
    postsCount: { type: 'integer' },
    createdAt: text,
    suspendedAt: nullableText,
  },
} as const;
const usernameParams = {
  type: 'object',
  properties: { username: { type: 'string', maxLength: REMOTE_USERNAME_MAX } },
  required: ['username'],
} as const;

type UsernameRoute = { Params: { username: string }; Body: { note?: string } | undefined };

export interface ReportsRoutesOptions {
  moderation: ModerationService;
  guards: Guards;
  /** Reports per user per hour. */
  reportsPerUser: LimitCheck;
}

/** `POST /api/reports`: any signed-in user reports a post, comment or user. */
export const reportsRoutes: FastifyPluginAsync<ReportsRoutesOptions> = async (app, options) => {
  const { moderation, guards, reportsPerUser } = options;
  app.post<{ Body: ReportInput }>(
    '/',
    {
      preValidation: [...guards.write, reportsPerUser],
      schema: {
        tags: ['moderation'],
        body: {
          type: 'object',
          properties: {
            targetType: { type: 'string', enum: [...REPORT_TARGET_TYPES] },
            targetId: { type: 'string', maxLength: REMOTE_USERNAME_MAX },
            reason: { type: 'string', enum: [...REPORT_REASONS] },
            note: text,
          },
          required: ['targetType', 'targetId', 'reason'],
        },
        response: { 201: { type: 'object', properties: { id: text } }, ...errors(400, 401, 404, 409, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await moderation.report(currentUser(request), request.body ?? {})),
  );
};

export interface AdminRoutesOptions {
  moderation: ModerationService;
  guards: Guards;
}

/** `/api/admin/*`: the report queue, suspensions, the user lookup and the log; admins only. */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, { moderation, guards }) => {
  const read = [...guards.signedIn, requireAdmin];
  // Every write here may suspend someone, which ends their sessions: not from an ended session (guard.ts).
  const write = [...guards.accountWrite, requireAdmin];

  app.get<{ Querystring: PageQuery & { status?: 'open' | 'resolved' } }>(
    '/reports',
    {
      preValidation: read,
      schema: {
        tags: ['moderation'],
        querystring: {
          type: 'object',
          properties: { ...pageQuerySchema, status: { type: 'string', enum: ['open', 'resolved'], default: 'open' } },
        },
        response: { 200: { type: 'array', items: reportSchema }, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      const rows = await moderation.queue(request.query.status ?? 'open', page);
      return sendPage(request, reply, page, rows, (r) => r.id);
    },
  );

  app.post<{ Params: { id: string }; Body: { action?: ReportAction; note?: string } | undefined }>(
    '/reports/:id/resolve',
    {
      preValidation: write,
      schema: {
        tags: ['moderation'],
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] },
        body: {
          type: 'object',
          properties: { action: { type: 'string', enum: [...REPORT_ACTIONS] }, note: text },
          required: ['action'],
        },
        response: { 200: reportSchema, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => moderation.resolve(currentUser(request), request.params.id, request.body ?? {}),
  );

  app.get<{ Params: { username: string } }>(
    '/users/:username',
    {
      preValidation: read,
      schema: {
        tags: ['moderation'],
        params: usernameParams,
        response: { 200: adminUserSchema, ...errors(401, 403, 404) },
      },
    },
    async (request) => moderation.lookup(request.params.username),
  );

  for (const [path, act] of [
    ['suspend', moderation.suspend],
    ['unsuspend', moderation.unsuspend],
  ] as const) {
    app.post<UsernameRoute>(
      `/users/:username/${path}`,
      {
        preValidation: write,
        schema: {
          tags: ['moderation'],
          params: usernameParams,
          // No body schema: the body is optional; the service checks `note`.
          response: { 200: adminUserSchema, ...errors(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => act(currentUser(request), request.params.username, request.body?.note),
    );
  }

  app.get<{ Querystring: PageQuery }>(
    '/log',
    {
      preValidation: read,
      schema: {
        tags: ['moderation'],
        querystring: { type: 'object', properties: pageQuerySchema },
        response: { 200: { type: 'array', items: logEntrySchema }, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      return sendPage(request, reply, page, await moderation.log(page), (e) => e.id);
    },
  );
};
