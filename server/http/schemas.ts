import { LANGUAGES } from '../../lib/i18n/languages';
/** JSON Schemas shared by routes: Fastify validates requests and serializes responses with them. */
import { AUDIENCES } from '../../lib/audience';

export const successSchema = {
  type: 'object',
  properties: { success: { type: 'boolean' } },
  required: ['success'],
} as const;

export const errorSchema = {
  type: 'object',
  // `requestId`: 5xx answers only (`http/requestIds.ts`).
  properties: { message: { type: 'string' }, code: { type: 'string' }, requestId: { type: 'string' } },
  required: ['message', 'code'],
} as const;

const nullableString = { type: ['string', 'null'] } as const;

/** A profile link (issue 68, item 32). */
const fieldsSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: { name: { type: 'string' }, value: { type: 'string' }, verifiedAt: nullableString },
  },
} as const;

/** The account a person moved to (issue 76). */
export const movedToSchema = {
  type: 'object',
  properties: { _id: { type: 'string' }, username: { type: 'string' }, displayName: nullableString },
  required: ['_id', 'username', 'displayName'],
} as const;

export const userSchema = {
  type: 'object',
  properties: {
    _id: { type: 'string' },
    username: { type: 'string' },
    displayName: nullableString,
    fields: fieldsSchema,
    email: { type: 'string' },
    avatar: nullableString,
    banner: nullableString,
    description: { type: 'string' },
    role: { type: 'string', enum: ['member', 'admin'] },
    followersCount: { type: 'integer' },
    followingCount: { type: 'integer' },
    postsCount: { type: 'integer' },
    createdAt: { type: 'string' },
    emailVerified: { type: 'boolean' },
    pendingEmail: nullableString,
    movedTo: movedToSchema,
    approveFollowers: { type: 'boolean' },
    defaultAudience: { type: 'string', enum: AUDIENCES },
    discoverable: { type: 'boolean' },
    language: { type: ['string', 'null'], enum: [...LANGUAGES, null] },
  },
} as const;

export const profileSchema = {
  type: 'object',
  properties: {
    _id: { type: 'string' },
    username: { type: 'string' },
    displayName: nullableString,
    fields: fieldsSchema,
    avatar: nullableString,
    banner: nullableString,
    description: { type: 'string' },
    followersCount: { type: 'integer' },
    followingCount: { type: 'integer' },
    postsCount: { type: 'integer' },
    followedByMe: { type: 'boolean' },
    approveFollowers: { type: 'boolean' },
    discoverable: { type: 'boolean' },
    followRequestedByMe: { type: 'boolean' },
    blockedByMe: { type: 'boolean' },
    mutedByMe: { type: 'boolean' },
    createdAt: { type: 'string' },
    remoteUrl: { type: 'string' },
    remoteUri: { type: 'string' },
    silenced: { type: 'boolean' },
    movedTo: movedToSchema,
  },
} as const;

export const userSummarySchema = {
  type: 'object',
  properties: {
    _id: { type: 'string' },
    username: { type: 'string' },
    avatar: nullableString,
    description: { type: 'string' },
  },
} as const;

const reaction = { type: ['string', 'null'], enum: ['like', 'dislike', null] } as const;
const mentions = { type: 'array', items: { type: 'string' } } as const;

export const reactionCountsSchema = {
  type: 'object',
  properties: { likesCount: { type: 'integer' }, dislikesCount: { type: 'integer' }, myReaction: reaction },
} as const;

export const commentSchema = {
  type: 'object',
  properties: {
    commentId: { type: 'string' },
    message: { type: 'string' },
    creator: { type: 'string' },
    creatorName: { type: 'string' },
    creatorImage: nullableString,
    likesCount: { type: 'integer' },
    dislikesCount: { type: 'integer' },
    myReaction: reaction,
    mentions,
    createdAt: { type: 'string' },
    originalUri: { type: 'string' },
  },
} as const;

export const imageInfoSchema = {
  type: ['object', 'null'],
  properties: {
    width: { type: 'integer' },
    height: { type: 'integer' },
    thumbhash: nullableString,
    srcset: { type: 'string' },
  },
} as const;

const cropSchema = {
  type: 'object',
  properties: { x: { type: 'number' }, y: { type: 'number' }, fit: { type: 'boolean' } },
} as const;

const postProperties = {
  _id: { type: 'string' },
  message: { type: 'string' },
  image: { type: 'string' },
  imageInfo: imageInfoSchema,
  tags: { type: 'array', items: { type: 'string' } },
  creator: { type: 'string' },
  creatorName: { type: 'string' },
  creatorImage: nullableString,
  likesCount: { type: 'integer' },
  dislikesCount: { type: 'integer' },
  commentsCount: { type: 'integer' },
  myReaction: reaction,
  savedByMe: { type: 'boolean' },
  reason: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
  mentions,
  alt: { type: 'string' },
  sensitive: { type: 'boolean' },
  spoiler: { type: 'string' },
  crop: cropSchema,
  images: {
    type: 'array',
    items: {
      type: 'object',
      properties: { image: { type: 'string' }, imageInfo: imageInfoSchema, alt: { type: 'string' }, crop: cropSchema },
    },
  },
  createdAt: { type: 'string' },
  updatedAt: { type: 'string' },
  originalUrl: { type: 'string' },
  originalUri: { type: 'string' },
  audience: { type: 'string', enum: AUDIENCES },
  importedFrom: { type: 'string' },
} as const;

export const postSchema = { type: 'object', properties: postProperties } as const;

export const postWithCommentsSchema = {
  type: 'object',
  properties: { ...postProperties, comments: { type: 'array', items: commentSchema } },
} as const;

export const userSearchResultSchema = {
  type: 'object',
  properties: {
    ...userSummarySchema.properties,
    followedByMe: { type: 'boolean' },
    followRequestedByMe: { type: 'boolean' },
  },
} as const;

export const notificationSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: ['follow', 'followRequest', 'like', 'comment', 'mention', 'commentLike'] },
    read: { type: 'boolean' },
    createdAt: { type: 'string' },
    actor: {
      type: 'object',
      properties: { username: { type: 'string' }, avatar: nullableString, followedByMe: { type: 'boolean' } },
    },
    post: { type: ['object', 'null'], properties: { _id: { type: 'string' }, image: { type: 'string' } } },
    comment: {
      type: ['object', 'null'],
      properties: { commentId: { type: 'string' }, message: { type: 'string' } },
    },
  },
} as const;

export const listOf = (items: object) => ({ type: 'array', items }) as const;

/** Standard error responses, for the OpenAPI document. */
export const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, errorSchema]));
