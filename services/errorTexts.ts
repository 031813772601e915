/**
 * The server's refusals in the page's language (issue 75): every API error is `{ message, code }`,
 * its message English; the client shows the catalogue's text for the code (`errors.<Code>`). Only
 * codes whose English message is one fixed text are here, and `RateLimited`'s few fixed shapes (its
 * wait an ICU argument); any other message keeps the server's (docs/api-decisions.md).
 */
import { textOf } from '../lib/i18n/appTexts';
import { ACCOUNT_ALIASES_MAX, UPLOAD_MAX_QUEUED_PER_USER } from '../lib/limits';
import { roundedWait } from '../lib/retryAfter';

/**
 * The codes translated here, each by its `errors.<Code>` text (the catalogue test takes their keys
 * from this list, and another compares each English text with the server's message). A list in
 * one string: a table of a function per code cost every page's first load half a kilobyte.
 */
export const TRANSLATED_CODES: readonly string[] = (
  'InvalidCredentials InvalidPassword AccountSuspended TwoFactorCodeRequired ' +
  'InvalidTwoFactorCode TwoFactorAlreadyOn TwoFactorNotSetUp TwoFactorNotOn UsernameRetired ' +
  'InvalidLink AlreadyVerified EmailTaken UsernameTaken AccountTaken AdminOnly UserNotFound ' +
  'PostNotFound CommentNotFound SessionNotFound ReportNotFound NotificationNotFound ' +
  'ImportNotFound FollowRequestNotFound NotFollower CannotFollowSelf CannotReportOwn ' +
  'AlreadyReported CannotSuspendSelf CannotSuspendAdmin AlreadySuspended NotSuspended ' +
  'AlreadyResolved NotContent ImportStarted ImageRequired CorruptImage ImageTooSlow ' +
  'TooManyUploadsQueued StorageUnavailable FederationOff InvalidAlias TooManyAliases ' +
  'AliasNotFound InvalidMove InvalidDomain DomainNotBlocked EmptyList PushDisabled ' +
  'NoPushSubscription DatabaseUnavailable InsufficientStorage InternalError'
).split(' ');
const translated = new Set(TRANSLATED_CODES);

/** The values of the texts that name a limit: the shared constants the server's messages are written with. */
const VALUES: Record<string, Record<string, number>> = {
  TooManyUploadsQueued: { count: UPLOAD_MAX_QUEUED_PER_USER },
  TooManyAliases: { max: ACCOUNT_ALIASES_MAX },
};

/**
 * The catalogue's text for a refusal's code, or null when the code is not one translated here or
 * the page's messages lack it (`textOf` then answers the key itself): the caller shows the server's.
 */
export function refusalText(code: unknown): string | null {
  if (typeof code !== 'string' || !translated.has(code)) return null;
  const key = `errors.${code}`;
  const text = textOf(key, VALUES[code]);
  return text === key ? null : text;
}

/** `RateLimited`'s messages before their "in N seconds" (server/http/rateLimits.ts, server/auth/). */
export const RATE_LIMIT_SHAPES: Record<string, (wait: string) => string> = {
  'Too many requests, try again': (wait) => textOf('errors.TooManyRequests', { wait }),
  'Too many wrong codes, try again': (wait) => textOf('errors.TooManyWrongCodes', { wait }),
  'Too many wrong passwords for this account, try again': (wait) => textOf('errors.TooManyWrongPasswords', { wait }),
};

/**
 * A `RateLimited` refusal in the page's language, its wait from the message's "in N seconds" or else
 * `Retry-After`; null for another code, a message of another shape, or a page without messages.
 */
export function rateLimitText(code: unknown, message: string, retryAfter: unknown): string | null {
  const [, shape = '', seconds = retryAfter] = /^(.+?)(?: in (\d+) seconds?)?$/.exec(message) ?? [];
  if (code !== 'RateLimited' || !Object.hasOwn(RATE_LIMIT_SHAPES, shape) || !/^\d+$/.test(String(seconds))) return null;
  const text = RATE_LIMIT_SHAPES[shape](textOf('errors.waitIn', roundedWait(Number(seconds))));
  return text.startsWith('errors.') ? null : text;
}

/**
 * Whether a shown message is the refusal `code`, in the page's language or the server's English
 * (`english`): forms that put a refusal beside its field read it back from the message.
 */
export function isRefusal(message: string, code: string, english: string): boolean {
  return message === english || message === refusalText(code);
}

/** A fixed text of the client's own, translated; the English one while no page's messages are set. */
function ownText(key: 'errors.offline' | 'auth.somethingWentWrong', english: string, text: string): string {
  return text === key ? english : text;
}

/** What a call that reached no server says (axios's own text is "Network Error"). */
export const OFFLINE_MESSAGE = 'You appear to be offline. Check your connection and try again.';

/** OFFLINE_MESSAGE in the page's language. */
export const offlineText = (): string => ownText('errors.offline', OFFLINE_MESSAGE, textOf('errors.offline'));

/** The last resort, when a failure says nothing at all. */
export const unknownText = (): string =>
  ownText('auth.somethingWentWrong', 'Something went wrong', textOf('auth.somethingWentWrong'));
