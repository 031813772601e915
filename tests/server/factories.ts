/** Test data: posts made the way a client makes them, and users' rows for tests that write straight to the database. */
import type { FastifyInstance } from 'fastify';
import type { Audience } from '../../lib/audience';
import type { Post } from '../../lib/types';
import { newId } from '../../server/domain/ids';
import type { SignedInUser } from './helpers';
import { uploadImage } from './multipart';

export async function createPost(
  app: FastifyInstance,
  user: SignedInUser,
  overrides: { message?: string; tags?: string[]; image?: string; audience?: Audience } = {},
): Promise<Post> {
  const image = overrides.image ?? (await uploadImage(app, user, 'post')).secure_url;
  const res = await app.inject({
    method: 'POST',
    url: '/api/posts/create',
    headers: user.headers,
    payload: {
      ...{ message: overrides.message ?? 'A sunny day', tags: overrides.tags ?? ['sun'], image },
      ...(overrides.audience ? { audience: overrides.audience } : {}),
    },
  });
  if (res.statusCode !== 201) throw new Error(`create post failed: ${res.body}`);
  return res.json();
}

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
