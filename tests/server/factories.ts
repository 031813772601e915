/** Test data through the public API: posts made the way a client makes them. */
import type { FastifyInstance } from 'fastify';
import type { Post } from '../../lib/types';
import type { SignedInUser } from './helpers';
import { uploadImage } from './multipart';

export async function createPost(
  app: FastifyInstance,
  user: SignedInUser,
  overrides: { message?: string; tags?: string[]; image?: string } = {},
): Promise<Post> {
  const image = overrides.image ?? (await uploadImage(app, user, 'post')).secure_url;
  const res = await app.inject({
    method: 'POST',
    url: '/api/posts/create',
    headers: user.headers,
    payload: { message: overrides.message ?? 'A sunny day', tags: overrides.tags ?? ['sun'], image },
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
