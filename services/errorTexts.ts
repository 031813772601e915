/**
 * The server's refusals in the page's language (issue 75): every API error is `{ message, code }`,
 * its message English; the client shows the catalogue's text for the code (`errors.<Code>`). Only
 * codes whose English message is one fixed text are here, and `RateLimited`'s few fixed shapes (its
 * wait an ICU argument); any other message keeps the server's (docs/api-decisions.md).
 * One literal key per code, so the catalogue test sees every key used.
 */
import { textOf } from '../lib/i18n/appTexts';
import { ACCOUNT_ALIASES_MAX, UPLOAD_MAX_QUEUED_PER_USER } from '../lib/limits';
import { roundedWait } from '../lib/retryAfter';

const BY_CODE: Record<string, () => string> = {
  InvalidCredentials: () => textOf('errors.InvalidCredentials'),
  InvalidPassword: () => textOf('errors.InvalidPassword'),
  AccountSuspended: () => textOf('errors.AccountSuspended'),
  TwoFactorCodeRequired: () => textOf('errors.TwoFactorCodeRequired'),
  InvalidTwoFactorCode: () => textOf('errors.InvalidTwoFactorCode'),
  TwoFactorAlreadyOn: () => textOf('errors.TwoFactorAlreadyOn'),
  TwoFactorNotSetUp: () => textOf('errors.TwoFactorNotSetUp'),
  TwoFactorNotOn: () => textOf('errors.TwoFactorNotOn'),
  UsernameRetired: () => textOf('errors.UsernameRetired'),
  InvalidLink: () => textOf('errors.InvalidLink'),
  AlreadyVerified: () => textOf('errors.AlreadyVerified'),
  EmailTaken: () => textOf('errors.EmailTaken'),
  UsernameTaken: () => textOf('errors.UsernameTaken'),
  AccountTaken: () => textOf('errors.AccountTaken'),
  AdminOnly: () => textOf('errors.AdminOnly'),
  UserNotFound: () => textOf('errors.UserNotFound'),
  PostNotFound: () => textOf('errors.PostNotFound'),
  CommentNotFound: () => textOf('errors.CommentNotFound'),
  SessionNotFound: () => textOf('errors.SessionNotFound'),
  ReportNotFound: () => textOf('errors.ReportNotFound'),
  NotificationNotFound: () => textOf('errors.NotificationNotFound'),
  ImportNotFound: () => textOf('errors.ImportNotFound'),
  FollowRequestNotFound: () => textOf('errors.FollowRequestNotFound'),
  NotFollower: () => textOf('errors.NotFollower'),
  CannotFollowSelf: () => textOf('errors.CannotFollowSelf'),
  CannotReportOwn: () => textOf('errors.CannotReportOwn'),
  AlreadyReported: () => textOf('errors.AlreadyReported'),
  CannotSuspendSelf: () => textOf('errors.CannotSuspendSelf'),
  CannotSuspendAdmin: () => textOf('errors.CannotSuspendAdmin'),
  AlreadySuspended: () => textOf('errors.AlreadySuspended'),
  NotSuspended: () => textOf('errors.NotSuspended'),
  AlreadyResolved: () => textOf('errors.AlreadyResolved'),
  NotContent: () => textOf('errors.NotContent'),
  ImportStarted: () => textOf('errors.ImportStarted'),
  ImageRequired: () => textOf('errors.ImageRequired'),
  CorruptImage: () => textOf('errors.CorruptImage'),
  ImageTooSlow: () => textOf('errors.ImageTooSlow'),
  // The limits are the shared constants the server's messages are written with.
  TooManyUploadsQueued: () => textOf('errors.TooManyUploadsQueued', { count: UPLOAD_MAX_QUEUED_PER_USER }),
  StorageUnavailable: () => textOf('errors.StorageUnavailable'),
  FederationOff: () => textOf('errors.FederationOff'),
  InvalidAlias: () => textOf('errors.InvalidAlias'),
  TooManyAliases: () => textOf('errors.TooManyAliases', { max: ACCOUNT_ALIASES_MAX }),
  AliasNotFound: () => textOf('errors.AliasNotFound'),
  InvalidMove: () => textOf('errors.InvalidMove'),
  InvalidDomain: () => textOf('errors.InvalidDomain'),
  DomainNotBlocked: () => textOf('errors.DomainNotBlocked'),
  EmptyList: () => textOf('errors.EmptyList'),
  PushDisabled: () => textOf('errors.PushDisabled'),
  NoPushSubscription: () => textOf('errors.NoPushSubscription'),
  DatabaseUnavailable: () => textOf('errors.DatabaseUnavailable'),
  InsufficientStorage: () => textOf('errors.InsufficientStorage'),
  InternalError: () => textOf('errors.InternalError'),
};

/** The codes translated here (the test compares each English text with the server's message). */
export const TRANSLATED_CODES: readonly string[] = Object.keys(BY_CODE);

/**
 * The catalogue's text for a refusal's code, or null when the code is not one translated here or
 * the page's messages lack it (`textOf` then answers the key itself): the caller shows the server's.
 */
export function refusalText(code: unknown): string | null {
  if (typeof code !== 'string' || !Object.hasOwn(BY_CODE, code)) return null;
  const text = BY_CODE[code]();
  return text === `errors.${code}` ? null : text;
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
