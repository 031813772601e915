/** Multipart parser errors as the API's answers (server/http/multipartErrors.ts), for uploads and list imports alike. */
import { InvalidError } from '../../server/domain/errors';
import { HttpError } from '../../server/http/errors';
import { multipartError } from '../../server/http/multipartErrors';

const tooBig = () => new HttpError(413, 'PayloadTooLarge', 'too big');
const coded = (code: string) => Object.assign(new Error(code), { code });

describe('a multipart parser error', () => {
  it("is the route's 413 for a file past its limit", () => {
    expect(multipartError(coded('FST_REQ_FILE_TOO_LARGE'), tooBig)).toMatchObject({
      statusCode: 413,
      message: 'too big',
    });
  });

  it('is a 400 that says what is wrong for the parser’s limits and broken forms', () => {
    const message = (error: unknown) => {
      const answer = multipartError(error, tooBig);
      expect(answer).toBeInstanceOf(InvalidError);
      return (answer as Error).message;
    };
    expect(message(coded('FST_FILES_LIMIT'))).toBe('Send one file only');
    for (const code of ['FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT', 'FST_PROTO_VIOLATION'])
      expect(message(coded(code))).toBe('Too many or invalid form fields');
    expect(message(new Error('Unexpected end of form'))).toBe('The upload is not valid multipart/form-data');
  });

  it('leaves the API’s own errors, and errors that carry a status, as they are', () => {
    const own = new InvalidError('file is required');
    const http = new HttpError(415, 'UnsupportedMediaType', 'no');
    const withStatus = Object.assign(new Error('aborted'), { statusCode: 400 });
    for (const error of [own, http, withStatus]) expect(multipartError(error, tooBig)).toBe(error);
  });
});
