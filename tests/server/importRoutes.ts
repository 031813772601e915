/**
 * The archive imports' routes as the tests call them (issue 76): `/api/imports/instagram` takes an
 * Instagram archive or a Posts export; the upload, the reads and the wait for a job's end.
 */
import type { InstagramImport, Post } from '../../lib/types';
import { multipartBody } from './multipart';
import { type SignedInUser, type TestApp, readUntil } from './helpers';

export const IMPORTS_URL = '/api/imports/instagram';

export const get = (app: TestApp, user: SignedInUser, url: string) =>
  app.app.inject({ method: 'GET', url, headers: user.headers });

export const post = (app: TestApp, user: SignedInUser, url: string, payload?: object) =>
  app.app.inject({ method: 'POST', url, headers: user.headers, ...(payload && { payload }) });

/** The zip sent as the settings page sends it (multipart `file`); a visitor when `user` is null. */
export function upload(app: TestApp, user: SignedInUser | null, archive: Buffer, filename = 'instagram.zip') {
  const body = multipartBody([{ name: 'file', filename, contentType: 'application/zip', data: archive }]);
  return app.app.inject({
    method: 'POST',
    url: IMPORTS_URL,
    payload: body.payload,
    headers: { ...body.headers, ...user?.headers },
  });
}

/** The import once its job has ended; the test's timeout bounds the wait. */
export async function ended(app: TestApp, user: SignedInUser, id: string): Promise<InstagramImport> {
  const res = await readUntil(
    () => get(app, user, `${IMPORTS_URL}/${id}`),
    (r) => r.statusCode !== 200 || r.json().import.state === 'finished',
  );
  expect(res.statusCode).toBe(200);
  return res.json().import;
}

/** The person's own posts, newest first (40 at most). */
export async function profilePosts(app: TestApp, user: SignedInUser): Promise<Post[]> {
  const res = await get(app, user, `/api/users/${user.username}/posts?limit=40`);
  expect(res.statusCode).toBe(200);
  return res.json() as Post[];
}
