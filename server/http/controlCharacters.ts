/**
 * Refuses control characters in every path parameter, query parameter and JSON body string with
 * a 400, before validation: PostgreSQL cannot store NUL (it answered 500), and no field of the API
 * has a use for the others, except line breaks and tabs in the free texts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidError } from '../domain/errors';

// C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// The same without tab, line feed and carriage return.
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Body fields a person writes several lines into. */
const FREE_TEXT = new Set(['message', 'description']);
/**
 * Sent only to be compared with a hash, never stored: an account whose password has a control
 * character (possible before this check) can still sign in. New passwords are refused (`passwordError`).
 */
const COMPARED_ONLY = new Set(['password']);

/**
 * Where in `value` a control character is, as a path from it (`.tags[1]`, '' for `value` itself),
 * or null. The path is only built on the way back from a find: most requests have none.
 */
function findControl(value: unknown, key: string): string | null {
  if (typeof value === 'string') {
    if (COMPARED_ONLY.has(key)) return null;
    return (FREE_TEXT.has(key) ? CONTROL_BUT_LINE_BREAKS : ANY_CONTROL).test(value) ? '' : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findControl(value[i], key);
      if (found !== null) return `[${i}]${found}`;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const name of Object.keys(value)) {
      const found = findControl((value as Record<string, unknown>)[name], name);
      if (found !== null) return `.${name}${found}`;
    }
  }
  return null;
}

/** The path of the first control character in the request's fields, as the 400 names it (`tags[1]`). */
function controlIn(request: FastifyRequest): string | null {
  const found = findControl(request.params, '') ?? findControl(request.query, '') ?? findControl(request.body, '');
  return found?.startsWith('.') ? found.slice(1) : found;
}

/** A preValidation hook; it calls back at once (an async hook would cost every request a promise). */
export function refuseControlCharacters(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  const field = controlIn(request);
  done(field ? new InvalidError(`${field} must not contain control characters`, 'ControlCharacter') : undefined);
}
