/**
 * The one place that turns any throw into `{ message, code }`; 5xx are logged with the request id
 * and carry it in their JSON (`requestId`), so a person can quote it.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  TooManyAttemptsError,
  UnauthorizedError,
  UnavailableError,
  UnsupportedError,
} from '../domain/errors';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, isDatabaseUnreachable } from '../db/errors';
import { type StorageHealth, isStorageFull } from '../instance/storageHealth';
import { HttpError } from './errors';
import { readRefusedBody } from './refusedBody';

/** Each kind of domain error's status code. */
function statusOf(error: DomainError): number {
  if (error instanceof InvalidError) return 400;
  if (error instanceof UnauthorizedError) return 401;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  if (error instanceof UnsupportedError) return 415;
  if (error instanceof TooManyAttemptsError) return 429;
  if (error instanceof UnavailableError) return 503;
  return 500;
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'RateLimited',
  503: 'Unavailable',
};

/** Turns "body/email must match format" into "email must match format". */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const field =
    first.instancePath.replace(/^\//, '').replace(/\//g, '.') ||
    (first.params as { missingProperty?: string }).missingProperty ||
    error.validationContext ||
    'request';
  if (first.keyword === 'required')
    return `${(first.params as { missingProperty: string }).missingProperty} is required`;
  return `${field} ${first.message ?? 'is invalid'}`;
}

/** What a write answers (507 `InsufficientStorage`) when the disk or the database is full. */
export const STORAGE_FULL = "The server's storage is full, so nothing was saved. Please try again later.";

export function registerErrorHandling(app: FastifyInstance, storage?: Pick<StorageHealth, 'full'>): void {
  app.setErrorHandler((error: FastifyError | HttpError | DomainError, request, reply) => {
    if (isStorageFull(error)) {
      // Nothing is wrong with the request, and nothing of it was kept (uploads remove what they
      // wrote, a failed statement's transaction rolls back): the operator must free space.
      storage?.full();
      request.log.error({ err: error }, 'request failed: no space left for the write');
      return reply.code(507).send({ message: STORAGE_FULL, code: 'InsufficientStorage', requestId: request.id });
    }
    if (error instanceof DomainError) {
      const status = statusOf(error);
      if (error instanceof TooManyAttemptsError) reply.header('Retry-After', String(error.retryAfterSeconds));
      if (status < 500) return reply.code(status).send({ message: error.message, code: error.code });
      if (status === 503) {
        // The message is ours and safe to show; the cause (the storage's own error) goes to the log only.
        request.log.error({ err: error }, 'request failed');
        return reply.code(status).send({ message: error.message, code: error.code, requestId: request.id });
      }
    }
    if (error instanceof HttpError) {
      if (error.statusCode < 500)
        return reply.code(error.statusCode).headers(error.headers).send({ message: error.message, code: error.code });
      // A 503 we chose (this instance is full: `StreamsFull`) is load shed as designed, not a fault:
      // a warning, so that error-level alerts mean something broke.
      if (error.statusCode === 503) request.log.warn({ code: error.code }, 'request refused: this instance is full');
      else request.log.error({ err: error }, 'request failed');
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ message: error.message, code: error.code, requestId: request.id });
    }
    if (isDatabaseUnreachable(error)) {
      // Nothing is wrong with the request: a balancer or client may try again once it is back.
      request.log.error({ err: error }, 'request failed: the database is unreachable');
      return reply
        .code(503)
        .header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ message: DATABASE_UNAVAILABLE, code: 'DatabaseUnavailable', requestId: request.id });
    }
    const fe = error as FastifyError;
    if (fe.validation) return reply.code(400).send({ message: validationMessage(fe), code: 'ValidationError' });
    const status = fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 600 ? fe.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({
        message: 'Something went wrong on our side, please try again',
        code: 'InternalError',
        requestId: request.id,
      });
    }
    // Fastify's own 4xx (bad JSON, wrong content type, body too large...): its message is safe to show.
    const code =
      typeof fe.code === 'string' && !fe.code.startsWith('FST_') ? fe.code : (CODE_BY_STATUS[status] ?? 'BadRequest');
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Answered once the body is read (`refusedBody.ts`), on a connection that then stays open.
      void readRefusedBody(request.raw).then((whole) => {
        if (whole) reply.removeHeader('connection');
        reply.code(status).send({ message: fe.message, code });
      });
      return;
    }
    return reply.code(status).send({ message: fe.message, code });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}`, code: 'NotFound' });
  });
}
