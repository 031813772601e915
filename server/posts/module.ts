/**
 * Posts wired: the shared rows and list pages every reader reads through (`postCache`), their read
 * model (`postViews`), the home
 * feed's index, the kept comment counts of blocked people, the post images' sizes, and the service (`context.ts` builds it, `app.ts` registers its routes).
 */
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../auth/guard';
import type { CacheRegistry } from '../cache/registry';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { PublishEvent } from '../events/domainEvents';
import { mediaRepository } from '../media/repository';
import type { MediaStorage } from '../media/storage';
import { POST_REACTIONS, reactionsByUser } from '../reactions/repository';
import { postReaders } from './access';
import { commentsByPersonCache } from './commentsByPerson';
import { createHomeFeed } from './homeFeed';
import { imageInfoCache } from './imageInfos';
import { postCache as createPostCache } from './postCache';
import { postViews } from './postViews';
import { postsByIds } from './repository';
import { postsRoutes, userPostsRoutes } from './routes';
import { type PostsServiceDeps, postsService } from './service';

export interface PostsFeatureDeps {
  config: Config;
  db: Db;
  data: PostsServiceDeps['data'];
  storage: MediaStorage;
  caches: CacheRegistry;
  publish: PublishEvent;
  media: PostsServiceDeps['media'];
  hiddenAuthors: PostsServiceDeps['hiddenAuthors'];
  /** `@name@host` looked up elsewhere; null when federation is off. */
  lookUpRemote: ((handle: string) => Promise<{ id: string } | null>) | null;
  onOff: (reason: string) => void;
  /** Files of a deleted post (or of photos taken out) that could not be removed. */
  onFilesLeft?: PostsServiceDeps['onFilesLeft'];
  /** Throws when an author may post no more (a moved account). */
  mayPost?: PostsServiceDeps['mayPost'];
  /** The audience an author's new posts start with. */
  defaultAudience?: PostsServiceDeps['defaultAudience'];
  /** Which posts a reader saved (`saves/savedIds.ts`). */
  savedAmong?: PostsServiceDeps['savedAmong'];
  /** The kept followed tags and their newest posts (`tags/followedTags.ts`). */
  followedTags?: PostsServiceDeps['followedTags'];
}

export type PostsFeature = ReturnType<typeof postsFeature>;

export function postsFeature(deps: PostsFeatureDeps) {
  const { config, db, data, caches, publish, media, hiddenAuthors } = deps;
  const kysely = db.kysely;
  const postCache = createPostCache(
    caches,
    (viewerId, ids, withReaction) => postsByIds(kysely, viewerId, ids, withReaction),
    (viewerId, max) => reactionsByUser(kysely, POST_REACTIONS, viewerId, max),
    config.postCacheMs,
  );
  const commentsByPerson = commentsByPersonCache(caches, (personIds) => data.posts.commentCountsOf(personIds), {
    ttlMs: config.postCacheMs,
  });
  const homeFeed = createHomeFeed(kysely, {
    caches,
    maxPosts: config.feedIndexMaxPosts,
    syncMs: config.homeFeedSyncMs,
    postsByIds: postCache.rows,
    onOff: deps.onOff,
  });
  const imageInfos = imageInfoCache(caches, mediaRepository(kysely), deps.storage);
  const readerOf = postReaders({ hiddenAuthors, homeFeed });
  const { mentionsPerUserPerMinute: mentionsPerMinute } = config.rateLimits;
  // `@name@host` is looked up elsewhere (when federation is on); `@name@` this site is `name`.
  const mentionRules = { ownHost: new URL(config.siteUrl).host, lookUpRemote: deps.lookUpRemote };
  const posts = postsService({
    data,
    media,
    homeFeed,
    views: postViews(caches, imageInfos, postCache),
    postCache,
    hiddenAuthors,
    readerOf,
    commentsByPerson,
    publish,
    mentionsPerMinute,
    mentionRules,
    mayPost: deps.mayPost,
    defaultAudience: deps.defaultAudience,
    maxImages: config.maxPostImages,
    savedAmong: deps.savedAmong,
    followedTags: deps.followedTags,
    onFilesLeft: deps.onFilesLeft,
  });
  return { posts, postCache, commentsByPerson, homeFeed, mentionRules, readerOf };
}

export async function registerPostsRoutes(
  app: FastifyInstance,
  deps: Pick<PostsFeature, 'posts'> & { guards: Guards },
) {
  await app.register(postsRoutes, { prefix: '/api/posts', posts: deps.posts, guards: deps.guards });
  await app.register(userPostsRoutes, { prefix: '/api/users', posts: deps.posts, guards: deps.guards });
}
