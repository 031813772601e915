/** Test data: uploads and posts made (and edited) the way a client makes them, and users' rows for tests that write straight to the database. */
import type { FastifyInstance } from 'fastify';
import type { Audience } from '../../lib/audience';
import type { Post, UploadResult } from '../../lib/types';
import { newId } from '../../server/domain/ids';
import type { SignedInUser } from './helpers';
import { uploadImage } from './multipart';

/** `n` post uploads of `user`'s, one after another (a person's uploads queue at most 4 at once). */
export async function uploadImages(app: FastifyInstance, user: SignedInUser, n: number): Promise<UploadResult[]> {
  const done = [];
  for (let i = 0; i < n; i++) done.push(await uploadImage(app, user, 'post'));
  return done;
}

/** A post's fields as a client sends them (`createPost`). */
export type PostFields = {
  message?: string;
  tags?: string[];
  audience?: Audience;
  /** Its one photo; a new upload of the author's when neither this nor `images` is given. */
  image?: string;
  /** Its photos in order (issue 71), instead of `image`. */
  images?: { image: string; alt?: string; crop?: { x: number; y: number; fit?: boolean } }[];
};

/**
 * `POST /api/posts/create` as a client sends it, answered as it came (refusals too): `fields` over a
 * message and a tag; with neither `image` nor `images`, a new upload of `user`'s is its image.
 */
export async function sendPost(app: FastifyInstance, user: SignedInUser, fields: Record<string, unknown> = {}) {
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const image =
    given.image === undefined && given.images === undefined
      ? { image: (await uploadImage(app, user, 'post')).secure_url }
      : {};
  return app.inject({
    method: 'POST',
    url: '/api/posts/create',
    headers: user.headers,
    payload: { message: 'A sunny day', tags: ['sun'], ...image, ...given },
  });
}

/** A new post of `user`'s (`sendPost`), as it answers; throws when it is refused. */
export async function createPost(app: FastifyInstance, user: SignedInUser, fields: PostFields = {}): Promise<Post> {
  const res = await sendPost(app, user, fields);
  if (res.statusCode !== 201) throw new Error(`create post failed: ${res.body}`);
  return res.json();
}

/** `PATCH /api/posts/{id}/manage` with the changes `post`, answered as it came (refusals too). */
export const editPost = (app: FastifyInstance, user: SignedInUser, id: string, post: Record<string, unknown>) =>
  app.inject({ method: 'PATCH', url: `/api/posts/${id}/manage`, headers: user.headers, payload: { post } });

/** Follows every `next` link of a list, returning all items and the number of pages. */
export async function walkPages<T>(
  app: FastifyInstance,
  user: SignedInUser,
  firstUrl: string,
  between?: () => Promise<void>,
) {
  const items: T[] = [];
  let url: string | null = firstUrl;
  let pages = 0;
  while (url) {
    const res = await app.inject({ method: 'GET', url, headers: user.headers });
    if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body}`);
    items.push(...(res.json() as T[]));
    pages += 1;
    const link = res.headers.link as string | undefined;
    url = link ? /<([^>]+)>;\s*rel="next"/.exec(link)![1] : null;
    if (between) await between();
  }
  return { items, pages };
}

/**
 * A users row named `name`, for bulk inserts straight into the database (hundreds of sign-ups
 * through the API would only test argon2); `extra` sets any other column.
 */
export function userRow(name: string, extra: { id?: string; description?: string; suspended_at?: string | null } = {}) {
  const now = new Date().toISOString();
  return {
    id: newId(),
    username: name,
    username_lower: name.toLowerCase(),
    email: `${name.toLowerCase()}@example.com`,
    password_hash: 'x',
    role: 'member' as const,
    avatar: null,
    banner: null,
    description: '',
    created_at: now,
    updated_at: now,
    ...extra,
  };
}

/**
 * A users row for a person on another server, as federation keeps them (`domain`, actor addresses,
 * no password, `remote:<id>` for an email); `extra` sets any other column.
 */
export function remoteUserRow(domain: string, extra: { suspended_at?: string | null } = {}) {
  const id = newId();
  const username = `p${id.replace(/-/g, '').slice(-8)}@${domain}`;
  return {
    ...userRow(username, { id }),
    username_lower: username,
    email: `remote:${id}`,
    password_hash: '',
    domain,
    actor_uri: `https://${domain}/users/${id}`,
    inbox_uri: `https://${domain}/users/${id}/inbox`,
    ...extra,
  };
}
