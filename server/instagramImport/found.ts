/**
 * What reading an archive finds, whichever kind (issue 76): the posts, and the refusals both
 * readers share (`archive.ts` for the zip and Instagram's lists, `postsExport.ts` for a Posts export).
 */
import type { ImportSettings } from '../../lib/types';
import { InvalidError } from '../domain/errors';

/** Why an archive is refused (a 400 with this message). */
export class ArchiveRefused extends InvalidError {
  constructor(message: string) {
    super(message, 'ArchiveRefused');
  }
}

export interface ArchiveLimits {
  /** A photo's bytes at most (the uploads' limit). */
  photoBytes: number;
  /** A posts list's bytes at most. */
  jsonBytes: number;
  /** Entries in the archive at most. */
  entries: number;
  /** Photos kept per post (`MAX_POST_IMAGES`); the others are left out. */
  photosPerPost: number;
  /** Posts in the archive at most. */
  posts: number;
}

/** What a Posts export says of a post beyond its message; checked against the post rules when it is made. */
export interface PostDetails {
  tags: string[];
  /** Null: one this server does not know, so the person's default. */
  audience: string | null;
  sensitive: boolean;
  spoiler: string;
  /** Each photo's alt text and crop (`posts.crop`'s form), in the photos' order. */
  photos: { alt: string; crop: string }[];
}

export interface FoundPost {
  takenAt: string;
  /** Instagram's caption, or a Posts export's message. */
  caption: string;
  /** Entry names of its photos, in order. */
  photos: string[];
  /** Media it names that will not be imported: missing, videos, or past the photos a post holds. */
  leftOut: number;
  /** A Posts export's post: the rest of it. */
  details?: PostDetails;
}

export interface FoundArchive {
  kind: 'instagram' | 'posts';
  /** Oldest first. */
  posts: FoundPost[];
  /** A Posts export's profile settings; null for Instagram's. */
  settings: ImportSettings | null;
}

export const PHOTO = /\.(jpe?g|png|webp|heic|gif)$/i;

/** A name that leaves the archive: absolute, a drive, or a `..` step. */
export function outside(name: string): boolean {
  return name.startsWith('/') || /^[a-z]:/i.test(name) || name.includes('\\') || name.split('/').includes('..');
}
