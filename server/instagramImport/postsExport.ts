/**
 * A Posts export (`GET /api/users/me/export`) read as an archive to import (issue 76, item 3): the
 * posts of its posts.json (message, tags, audience, content warning, every photo in order with its
 * alt text and crop, the original date) and the profile settings of its account.json. Only the
 * shape is checked here; each post is held to the post rules when it is made, and the settings to
 * the profile's when applied, so one that breaks them fails alone with the rule's message.
 */
import { isAudience } from '../../lib/audience';
import { cropColumn, cropError, type PhotoCrop } from '../../lib/photoCrop';
import type { ImportSettings } from '../../lib/types';
import { type ArchiveLimits, ArchiveRefused, type FoundPost, type PostDetails, PHOTO, outside } from './found';

export const ACCOUNT_FILE = 'account.json';
export const POSTS_FILE = 'posts.json';

const NOT_POSTS = `${POSTS_FILE} is not a list of posts as Posts writes them`;

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value : '');
const cropOf = (value: unknown) => (cropError(value) === null ? cropColumn(value as PhotoCrop) : '');

function postOf(raw: unknown, names: Set<string>, limits: ArchiveLimits): FoundPost {
  if (!isObject(raw) || typeof raw.message !== 'string') throw new ArchiveRefused(NOT_POSTS);
  const date = typeof raw.createdAt === 'string' ? Date.parse(raw.createdAt) : NaN;
  if (Number.isNaN(date)) throw new ArchiveRefused(`${POSTS_FILE}: a post has no date (createdAt)`);
  // Every photo (issue 71); an export older than albums has the post's own image only.
  const images: unknown[] = Array.isArray(raw.images) ? raw.images : [raw];
  const photos: string[] = [];
  const details: PostDetails = {
    tags: Array.isArray(raw.tags) ? raw.tags.filter((tag): tag is string => typeof tag === 'string') : [],
    audience: isAudience(raw.audience) ? raw.audience : null,
    sensitive: raw.sensitive === true,
    spoiler: text(raw.spoiler),
    photos: [],
  };
  let leftOut = 0;
  for (const image of images) {
    // null: a photo that was never an upload of that server (nothing of it in the zip).
    const file = isObject(image) && typeof image.imageFile === 'string' ? image.imageFile : null;
    if (file !== null && outside(file))
      throw new ArchiveRefused(`${POSTS_FILE} names a file outside the archive (${file})`);
    if (file !== null && !PHOTO.test(file))
      throw new ArchiveRefused(`${POSTS_FILE} names ${file}, which is not a photo`);
    if (file === null || !names.has(file) || photos.length >= limits.photosPerPost) leftOut++;
    else {
      photos.push(file);
      details.photos.push({ alt: text((image as Fields).alt), crop: cropOf((image as Fields).crop) });
    }
  }
  return { takenAt: new Date(date).toISOString(), caption: raw.message, photos, leftOut, details };
}

/** The posts of posts.json; `names`: the photos in the zip. */
export function exportPostsOf(json: unknown, names: Set<string>, limits: ArchiveLimits): FoundPost[] {
  if (!Array.isArray(json)) throw new ArchiveRefused(NOT_POSTS);
  if (json.length > limits.posts)
    throw new ArchiveRefused(`The archive holds more than ${limits.posts.toLocaleString('en')} posts`);
  return json.map((raw) => postOf(raw, names, limits));
}

/** The profile settings of account.json: never its email, username, role or anything to sign in with. */
export function exportSettingsOf(json: unknown): ImportSettings {
  if (!isObject(json)) throw new ArchiveRefused(`${ACCOUNT_FILE} is not an account as Posts writes it`);
  const settings: ImportSettings = {};
  if (typeof json.displayName === 'string' || json.displayName === null) settings.displayName = json.displayName;
  if (typeof json.description === 'string') settings.description = json.description;
  if (Array.isArray(json.fields))
    settings.fields = json.fields
      .filter((f): f is Fields => isObject(f) && typeof f.name === 'string' && typeof f.value === 'string')
      .map((f) => ({ name: f.name as string, value: f.value as string }));
  if (isAudience(json.defaultAudience)) settings.defaultAudience = json.defaultAudience;
  if (typeof json.approveFollowers === 'boolean') settings.approveFollowers = json.approveFollowers;
  if (typeof json.discoverable === 'boolean') settings.discoverable = json.discoverable;
  return settings;
}
