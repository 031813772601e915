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

function findControl(value: unknown, path: string, key: string): string | null {
  if (typeof value === 'string') {
    if (COMPARED_ONLY.has(key)) return null;
    return (FREE_TEXT.has(key) ? CONTROL_BUT_LINE_BREAKS : ANY_CONTROL).test(value) ? path : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findControl(value[i], `${path}[${i}]`, key);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [name, child] of Object.entries(value)) {
      const found = findControl(child, path ? `${path}.${name}` : name, name);
      if (found) return found;
    }
  }
  return null;
}

/** A preValidation hook; it calls back at once (an async hook would cost every request a promise). */
export function refuseControlCharacters(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  const field =
    findControl(request.params, '', '') ?? findControl(request.query, '', '') ?? findControl(request.body, '', '');
  done(field ? new InvalidError(`${field} must not contain control characters`, 'ControlCharacter') : undefined);
}
