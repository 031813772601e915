/**
 * The posts service: its reads (`reads.ts`) and writes (`writes.ts`) as one object, for the routes.
 * Input checks are in `input.ts`, who may see a post in `access.ts`.
 */
import { type PostReadsDeps, postReads } from './reads';
import { type PostWritesDeps, postWrites } from './writes';

export type { PostInput } from './input';

export type PostsServiceDeps = PostReadsDeps & Omit<PostWritesDeps, 'load'>;

export function postsService(deps: PostsServiceDeps) {
  const reads = postReads(deps);
  return { ...reads, ...postWrites({ ...deps, load: reads.load }) };
}

export type PostsService = ReturnType<typeof postsService>;
