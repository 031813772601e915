import { CENTRE_CROP } from '../../../lib/photoCrop';
import type { AppNotification, Comment, Post, Profile, User } from '../../../lib/types';

let seq = 0;
const next = () => ++seq;

export function buildUser(overrides: Partial<User> = {}): User {
  const n = next();
  return {
    _id: `user-${n}`,
    username: `user${n}`,
    displayName: null,
    fields: [],
    email: `user${n}@example.com`,
    avatar: null,
    banner: null,
    description: '',
    role: 'member',
    followersCount: 0,
    followingCount: 0,
    postsCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    emailVerified: true,
    pendingEmail: null,
    approveFollowers: false,
    defaultAudience: 'public',
    discoverable: true,
    ...overrides,
  };
}

export function buildProfile(overrides: Partial<Profile> = {}): Profile {
  const { email: _email, role: _role, defaultAudience: _audience, ...user } = buildUser();
  return {
    ...user,
    followedByMe: false,
    followRequestedByMe: false,
    blockedByMe: false,
    mutedByMe: false,
    ...overrides,
  };
}

export function buildPost(overrides: Partial<Post> = {}): Post {
  const n = next();
  const post: Post = {
    _id: `post-${n}`,
    audience: 'public',
    message: `Post number ${n}`,
    image: `/media/post-${n}.jpg`,
    imageInfo: null,
    tags: ['tag'],
    creator: 'someone',
    creatorImage: null,
    likesCount: 0,
    dislikesCount: 0,
    commentsCount: 0,
    myReaction: null,
    alt: '',
    sensitive: false,
    spoiler: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    mentions: [],
    images: [],
    ...overrides,
  };
  // Albums (issue 71): one photo unless the test gives the list, as the server answers.
  return overrides.images
    ? post
    : { ...post, images: [{ image: post.image, imageInfo: post.imageInfo, alt: post.alt, crop: CENTRE_CROP }] };
}

export function buildComment(overrides: Partial<Comment> = {}): Comment {
  const n = next();
  return {
    commentId: `comment-${n}`,
    message: `Comment ${n}`,
    creator: 'someone',
    creatorImage: null,
    likesCount: 0,
    dislikesCount: 0,
    myReaction: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    mentions: [],
    ...overrides,
  };
}

export function buildNotification(overrides: Partial<AppNotification> = {}): AppNotification {
  const n = next();
  return {
    id: `notification-${n}`,
    type: 'like',
    read: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    actor: { username: 'ann', avatar: null, followedByMe: false },
    post: { _id: 'p1', image: '/media/p1.webp' },
    comment: null,
    ...overrides,
  };
}
