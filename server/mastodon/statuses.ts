/**
 * Statuses (the timelines are timelines.ts). A status with `in_reply_to_id` is a comment on that post; any other
 * carries exactly one uploaded image and is a post, its tags the text's `#hashtags`.
 */
import { type Audience, audienceOfVisibility } from '../../lib/audience';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Language } from '../../lib/i18n/languages';
import type { Comment, Post } from '../../lib/types';
import { ForbiddenError, InvalidError, NotFoundError } from '../domain/errors';
import type { AuthUser } from '../domain/types';
import { HttpError } from '../http/errors';
import { covers } from '../oauth/scopes';
import { SCOPE_MISSING, needs } from './http';
import { usernameKey } from '../../lib/validation';
import { hashtagTags } from '../../lib/textEntities';
import { type PhotoCrop, cropOfColumn, cropOfFocusText } from '../../lib/photoCrop';
import {
  type Account,
  type MentionEntity,
  type Site,
  attachmentIdOf,
  commentStatus,
  mentionOf,
  mentionsStillHere,
  positionOfAttachment,
  postStatus,
  toAccount,
} from './mappers';
import {
  type ClientServices,
  type ListQuery,
  accountsFor,
  readListPage,
  sendList,
  siteOf,
  tokenUser,
  truthy,
} from './support';

/** Mastodon's text when a status has nothing a post needs. */
export const IMAGE_REQUIRED =
  'Validation failed: A status needs one image or more (media_ids), or in_reply_to_id to comment on a post';
/** A bookmark of a comment's status: only posts are saved (issue 73). */
export const BOOKMARK_POSTS_ONLY = 'Validation failed: Only posts can be bookmarked, not comments';
/** How many comments `context` lists at most. */
const CONTEXT_COMMENTS_MAX = 200;

/**
 * The authors of one answer's posts and the people they mention, as Accounts, read in one
 * statement (by lower-cased name, through the authors' cache).
 */
async function accountsOfPosts(services: ClientServices, site: Site, posts: Post[]) {
  const names = posts.flatMap((post) => [post.creator, ...(post.mentions ?? [])]);
  const authors = await services.users.authorsNamed(names);
  const accounts = new Map<string, Account>();
  for (const [key, facts] of authors) accounts.set(key, toAccount(site, facts));
  return {
    accountOf: (post: Post) => accounts.get(usernameKey(post.creator)),
    languageOf: (post: Post) => authors.get(usernameKey(post.creator))?.language ?? null,
    mentionsOf: (post: Post): MentionEntity[] =>
      mentionsStillHere(post.mentions, (key) => {
        const account = accounts.get(key);
        return account && mentionOf(account);
      }),
  };
}

/**
 * The people comments name, as `mentions` entries (one statement through the authors' cache, as
 * for posts); a deleted person is left out.
 */
async function commentMentions(services: ClientServices, site: Site, comments: Comment[]) {
  const authors = await services.users.authorsNamed(comments.flatMap((c) => c.mentions ?? []));
  return (comment: Comment): MentionEntity[] =>
    mentionsStillHere(comment.mentions, (key) => {
      const facts = authors.get(key);
      return facts && mentionOf(toAccount(site, facts));
    });
}

/**
 * The language each of these people writes in, as their statuses give it (`users.language`:
 * mappers.ts), read through the authors' cache; null for someone gone.
 */
export async function languagesOf(services: ClientServices, usernames: string[]) {
  const authors = await services.users.authorsNamed(usernames);
  return (username: string): Language | null => authors.get(usernameKey(username))?.language ?? null;
}

/**
 * Posts as statuses: the posts came through the lists' rules, so their authors need no visibility
 * check again, only their public facts. A post whose author is gone since is left out.
 */
export async function statusesOfPosts(services: ClientServices, _viewer: AuthUser, site: Site, posts: Post[]) {
  const { accountOf, languageOf, mentionsOf } = await accountsOfPosts(services, site, posts);
  const statuses = [];
  for (const post of posts) {
    const account = accountOf(post);
    if (account) statuses.push(postStatus(site, post, account, languageOf(post), mentionsOf(post)));
  }
  return statuses;
}

type IdRoute = { Params: { id: string } };

interface StatusBody {
  status?: unknown;
  media_ids?: unknown;
  /** An edit's changes to attachments' descriptions and focal points, `[{ id, description?, focus? }]`. */
  media_attributes?: unknown;
  in_reply_to_id?: unknown;
  sensitive?: unknown;
  spoiler_text?: unknown;
  visibility?: unknown;
  /**
   * Read by no one: Posts keeps no language per post, a status's is its author's (mappers.ts). Any
   * value is taken without a refusal, as Mastodon ignores a code it does not know (docs/API.md).
   */
  language?: unknown;
}

/** A status's `visibility` as a post's audience: undefined when not given (the person's default), a 422 when unknown. */
function audienceOf(visibility: unknown): Audience | undefined {
  if (visibility === undefined || visibility === '') return undefined;
  const audience = audienceOfVisibility(visibility);
  if (!audience)
    throw new HttpError(422, 'UnprocessableEntity', 'Validation failed: Visibility is not included in the list');
  return audience;
}

const SAME_PHOTO_TWICE = 'Validation failed: media_ids names the same photo twice';

/** `media_ids` as a list of ids, one to `max` of them, none twice (issue 71); a 422 otherwise. */
function mediaIdsOf(raw: unknown, max: number): string[] {
  const ids: unknown[] = Array.isArray(raw) ? raw : raw ? [raw] : [];
  if (ids.length === 0 || ids.some((id) => typeof id !== 'string'))
    throw new HttpError(422, 'UnprocessableEntity', IMAGE_REQUIRED);
  if (ids.length > max)
    throw new HttpError(422, 'UnprocessableEntity', `Validation failed: A post holds at most ${max} photos`);
  if (new Set(ids).size !== ids.length) throw new HttpError(422, 'UnprocessableEntity', SAME_PHOTO_TWICE);
  return ids as string[];
}

/**
 * The posts service's refusal of a photo given twice (two ids of one photo: an attachment's and its
 * upload's), as Mastodon answers a validation error: 422, not the site API's 400.
 */
function samePhotoTwiceAs422(error: unknown): never {
  if (error instanceof InvalidError && error.code === 'DuplicateImage')
    throw new HttpError(422, 'UnprocessableEntity', SAME_PHOTO_TWICE);
  throw error;
}

const NOT_YOURS = 'Validation failed: media_ids names no upload of yours';

/** An upload as a photo of a post: its description the alt text, its focal point (`focus`) the crop. */
const photoOfUpload = (upload: { url: string; row: { description: string | null; crop: string } }) => ({
  image: upload.url,
  ...(upload.row.description ? { alt: upload.row.description } : {}),
  ...(upload.row.crop ? { crop: cropOfColumn(upload.row.crop) } : {}),
});

/** An edit's `media_attributes` by attachment id: a new description (alt text) or focal point (crop). */
function mediaAttributesOf(raw: unknown): Map<string, { alt?: string; crop?: PhotoCrop }> {
  const byId = new Map<string, { alt?: string; crop?: PhotoCrop }>();
  if (raw === undefined) return byId;
  const list: unknown[] = Array.isArray(raw) ? raw : typeof raw === 'object' && raw !== null ? Object.values(raw) : [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const { id, description, focus } = item as { id?: unknown; description?: unknown; focus?: unknown };
    if (typeof id !== 'string') continue;
    const crop = typeof focus === 'string' ? cropOfFocusText(focus) : null;
    if (typeof focus === 'string' && focus !== '' && !crop)
      throw new HttpError(422, 'UnprocessableEntity', 'Validation failed: focus must be two numbers from -1 to 1');
    byId.set(id, {
      ...(typeof description === 'string' ? { alt: description } : {}),
      ...(crop ? { crop } : {}),
    });
  }
  return byId;
}

export const statusEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, users, posts, comments, media, limits, idempotent } = services;
  const write = (scope: string) => [needs(scope), limits.writes];

  /**
   * An edit's photos (issue 71) from `media_ids`: an attachment of the post (`attachmentIdOf`) is
   * that photo, any other id one of the person's uploads; `media_attributes` changes their
   * descriptions and focal points. Undefined when the edit names no attachments.
   */
  const editedImages = async (viewer: AuthUser, postId: string, body: StatusBody) => {
    const attributes = mediaAttributesOf(body.media_attributes);
    if (body.media_ids === undefined && attributes.size === 0) return undefined;
    const post = await posts.one(viewer, postId);
    const ids =
      body.media_ids === undefined
        ? post.images.map((_, i) => attachmentIdOf(post._id, i))
        : mediaIdsOf(body.media_ids, config.maxPostImages);
    return Promise.all(
      ids.map(async (id) => {
        const position = positionOfAttachment(post._id, id);
        const kept = position === null ? undefined : post.images[position];
        let photo: { image: string; alt?: string; crop?: PhotoCrop };
        if (kept) photo = { image: kept.image };
        else {
          const upload = await media.findOwn(viewer.id, id);
          if (!upload) throw new HttpError(422, 'UnprocessableEntity', NOT_YOURS);
          photo = photoOfUpload(upload);
        }
        return { ...photo, ...attributes.get(id) };
      }),
    );
  };

  /**
   * Deleting what someone else wrote (not on one's own post) is an admin's power: through an app it
   * takes a token with `admin:write` too (issue 68, item 37), so an app given `write:statuses` by
   * an admin cannot remove anyone's posts. Only the app's scopes are checked here; the service
   * still checks the person's role.
   */
  const refuseAdminPowerWithout = (request: FastifyRequest, viewer: AuthUser, owners: string[]) => {
    if (owners.includes(viewer.username)) return;
    if (!covers(request.bearer?.scopes ?? [], 'admin:write')) throw new ForbiddenError(SCOPE_MISSING);
  };

  const one = async (viewer: AuthUser, site: Site, id: string) => {
    const post = await posts.one(viewer, id);
    return (await statusesOfPosts(services, viewer, site, [post]))[0];
  };

  /** A status id is a post's or a comment's: the post first, then the comment (with its post). */
  const findStatus = async (
    viewer: AuthUser,
    id: string,
  ): Promise<{ post: Post } | { comment: Comment; postId: string }> => {
    try {
      return { post: await posts.one(viewer, id) };
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      const found = await comments.one(viewer, id).catch(() => null);
      if (!found) throw error;
      return { comment: found.comment, postId: found.postId };
    }
  };

  const commentAsStatus = async (viewer: AuthUser, site: Site, comment: Comment, postId: string) => {
    const post = await posts.one(viewer, postId);
    const accountOf = accountsFor(users, viewer, site);
    const [author, postAuthor, mentionsOf, languageOf] = await Promise.all([
      accountOf(comment.creator),
      accountOf(post.creator),
      commentMentions(services, site, [comment]),
      languagesOf(services, [comment.creator]),
    ]);
    return commentStatus(site, comment, post, postAuthor.id, author, languageOf(comment.creator), mentionsOf(comment));
  };

  /** The status of a post or a comment, by its id. */
  const statusById = async (viewer: AuthUser, site: Site, id: string) => {
    const found = await findStatus(viewer, id);
    if ('post' in found) return (await statusesOfPosts(services, viewer, site, [found.post]))[0];
    return commentAsStatus(viewer, site, found.comment, found.postId);
  };

  app.post<{ Body: StatusBody }>('/api/v1/statuses', { preValidation: write('write:statuses') }, async (request) => {
    const viewer = tokenUser(request);
    const key = request.headers['idempotency-key'];
    return idempotent(viewer.id, typeof key === 'string' ? key : undefined, {
      call: () => createStatus(request, viewer),
      idOf: (status) => status.id,
      // A retry that reached another instance: the status the first call made, as it reads now.
      again: (id) => statusById(viewer, siteOf(config, request), id),
    });
  });

  async function createStatus(request: FastifyRequest<{ Body: StatusBody }>, viewer: AuthUser) {
    const site = siteOf(config, request);
    const body = request.body ?? {};
    const text = typeof body.status === 'string' ? body.status : '';
    if (typeof body.in_reply_to_id === 'string' && body.in_reply_to_id) {
      const post = await posts.one(viewer, body.in_reply_to_id);
      const comment = await comments.add(viewer, post._id, text);
      const accountOf = accountsFor(users, viewer, site);
      const [author, postAuthor, mentionsOf, languageOf] = await Promise.all([
        accountOf(comment.creator),
        accountOf(post.creator),
        commentMentions(services, site, [comment]),
        languagesOf(services, [comment.creator]),
      ]);
      return commentStatus(
        site,
        comment,
        post,
        postAuthor.id,
        author,
        languageOf(comment.creator),
        mentionsOf(comment),
      );
    }
    const ids = mediaIdsOf(body.media_ids, config.maxPostImages);
    const uploads = await Promise.all(ids.map((id) => media.findOwn(viewer.id, id)));
    if (uploads.some((upload) => !upload)) throw new HttpError(422, 'UnprocessableEntity', NOT_YOURS);
    const created = await posts
      .create(viewer, {
        message: text,
        tags: hashtagTags(text),
        // Each upload a photo, in the order of `media_ids` (issue 71).
        images: uploads.map((upload) => photoOfUpload(upload!)),
        ...(truthy(body.sensitive) !== undefined ? { sensitive: truthy(body.sensitive) } : {}),
        ...(typeof body.spoiler_text === 'string' ? { spoiler: body.spoiler_text } : {}),
        audience: audienceOf(body.visibility),
      })
      .catch(samePhotoTwiceAs422);
    return (await statusesOfPosts(services, viewer, site, [created]))[0];
  }

  app.get<IdRoute>('/api/v1/statuses/:id', { preValidation: needs('read:statuses') }, async (request) =>
    statusById(tokenUser(request), siteOf(config, request), request.params.id),
  );

  // An edit changes the text (and so the tags), the content warning and, when it names them, the
  // photos (`media_ids`, their order) and their descriptions (`media_attributes`).
  app.put<IdRoute & { Body: StatusBody }>(
    '/api/v1/statuses/:id',
    { preValidation: write('write:statuses') },
    async (request) => {
      const viewer = tokenUser(request);
      const body = request.body ?? {};
      const text = typeof body.status === 'string' ? body.status : undefined;
      const images = await editedImages(viewer, request.params.id, body);
      const edited = await posts
        .edit(viewer, request.params.id, {
          ...(images ? { images } : {}),
          ...(text !== undefined ? { message: text, tags: hashtagTags(text) } : {}),
          ...(truthy(body.sensitive) !== undefined ? { sensitive: truthy(body.sensitive) } : {}),
          ...(typeof body.spoiler_text === 'string' ? { spoiler: body.spoiler_text } : {}),
          audience: audienceOf(body.visibility),
        })
        .catch(samePhotoTwiceAs422);
      return (await statusesOfPosts(services, viewer, siteOf(config, request), [edited]))[0];
    },
  );

  app.delete<IdRoute>('/api/v1/statuses/:id', { preValidation: write('write:statuses') }, async (request) => {
    const viewer = tokenUser(request);
    const site = siteOf(config, request);
    const found = await findStatus(viewer, request.params.id);
    // Mastodon answers the deleted status (with its text, for "delete and redraft").
    if ('comment' in found) {
      const post = await posts.one(viewer, found.postId);
      refuseAdminPowerWithout(request, viewer, [found.comment.creator, post.creator]);
      const status = await commentAsStatus(viewer, site, found.comment, found.postId);
      await comments.remove(viewer, found.postId, found.comment.commentId);
      return status;
    }
    refuseAdminPowerWithout(request, viewer, [found.post.creator]);
    const status = (await statusesOfPosts(services, viewer, site, [found.post]))[0];
    await posts.remove(viewer, found.post._id);
    return status;
  });

  app.get<IdRoute>('/api/v1/statuses/:id/context', { preValidation: needs('read:statuses') }, async (request) => {
    const viewer = tokenUser(request);
    const site = siteOf(config, request);
    const found = await findStatus(viewer, request.params.id);
    // A comment's thread is its post above it; comments have no replies of their own.
    if ('comment' in found) return { ancestors: [await statusById(viewer, site, found.postId)], descendants: [] };
    const { post } = found;
    const all = [];
    for (let cursor: string | null = null; all.length < CONTEXT_COMMENTS_MAX;) {
      const page = await comments.list(viewer, post._id, { cursor, limit: 50 });
      all.push(...page.slice(0, 50));
      if (page.length <= 50) break;
      cursor = page[49].commentId;
    }
    const accountOf = accountsFor(users, viewer, site);
    const [postAuthor, mentionsOf, languageOf] = await Promise.all([
      accountOf(post.creator),
      commentMentions(services, site, all),
      languagesOf(
        services,
        all.map((c) => c.creator),
      ),
    ]);
    // Oldest first, as a thread reads.
    const descendants = await Promise.all(
      all
        .reverse()
        .map(async (c) =>
          commentStatus(site, c, post, postAuthor.id, await accountOf(c.creator), languageOf(c.creator), mentionsOf(c)),
        ),
    );
    return { ancestors: [], descendants };
  });

  for (const [action, wanted] of [
    ['favourite', true],
    ['unfavourite', false],
  ] as const)
    app.post<IdRoute>(
      `/api/v1/statuses/:id/${action}`,
      { preValidation: write('write:favourites') },
      async (request) => {
        const viewer = tokenUser(request);
        const site = siteOf(config, request);
        const found = await findStatus(viewer, request.params.id);
        // The services toggle; a favourite that is already there (or not) is left as it is.
        if ('comment' in found) {
          const { comment, postId } = found;
          if ((comment.myReaction === 'like') !== wanted)
            await comments.react(viewer, postId, comment.commentId, 'like');
          return statusById(viewer, site, comment.commentId);
        }
        if ((found.post.myReaction === 'like') !== wanted) await posts.react(viewer, found.post._id, 'like');
        return one(viewer, site, found.post._id);
      },
    );

  // Bookmarks are saved posts (issue 73); a comment is no post of its own to save.
  for (const [action, wanted] of [
    ['bookmark', true],
    ['unbookmark', false],
  ] as const)
    app.post<IdRoute>(
      `/api/v1/statuses/:id/${action}`,
      { preValidation: write('write:bookmarks') },
      async (request) => {
        const viewer = tokenUser(request);
        const site = siteOf(config, request);
        const found = await findStatus(viewer, request.params.id);
        if ('comment' in found) throw new HttpError(422, 'UnprocessableEntity', BOOKMARK_POSTS_ONLY);
        const post = await (wanted ? services.saves.save : services.saves.unsave)(viewer, found.post._id);
        return (await statusesOfPosts(services, viewer, site, [post]))[0];
      },
    );

  app.get<IdRoute & { Querystring: ListQuery }>(
    '/api/v1/statuses/:id/favourited_by',
    { preValidation: needs('read:accounts') },
    async (request, reply) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const list = readListPage(request.query);
      const rows = await posts.likers(viewer, request.params.id, list.page);
      const shown = sendList(request, reply, site, list, rows, (r) => r.id);
      const accountOf = accountsFor(users, viewer, site);
      return Promise.all(shown.map((r) => accountOf(r.username)));
    },
  );
};
