import { blobErrorMessage } from '../../../services/blobErrors';

describe('blobErrorMessage', () => {
  it("reads the server's message out of a JSON answer that came as a Blob", async () => {
    const data = new Blob([JSON.stringify({ error: 'RateLimited', message: 'Try again later' })]);
    expect(await blobErrorMessage({ response: { data } })).toBe('Try again later');
  });

  it('falls back to the error itself when the Blob is not JSON, or the answer is no Blob', async () => {
    const notJson = Object.assign(new Error('Request failed with status code 502'), {
      response: { data: new Blob(['<html>Bad gateway</html>']) },
    });
    expect(await blobErrorMessage(notJson)).toBe('Request failed with status code 502');
    expect(await blobErrorMessage({ response: { data: { message: 'Plain JSON' } } })).toBe('Plain JSON');
  });
});
