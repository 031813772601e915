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
  // The reply serializer of what this service answers (`postViews.ts`).
  return { ...reads, ...postWrites({ ...deps, load: reads.load }), listText: deps.views.listText };
}

export type PostsService = ReturnType<typeof postsService>;
