import { DomainError, InvalidError } from '../domain/errors';
import { HttpError } from './errors';

/**
 * Multipart parser errors as the API's own answers (uploads, list imports); `tooBig` is the
 * route's own 413, which names its limit.
 */
export function multipartError(error: unknown, tooBig: () => Error): unknown {
  if (error instanceof HttpError || error instanceof DomainError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooBig();
    case 'FST_FILES_LIMIT':
      return new InvalidError('Send one file only');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return new InvalidError('Too many or invalid form fields');
  }
  // busboy's "Unexpected end of form", "Malformed part header" and the like.
  if (error instanceof Error && !(error as { statusCode?: number }).statusCode)
    return new InvalidError('The upload is not valid multipart/form-data');
  return error;
}
