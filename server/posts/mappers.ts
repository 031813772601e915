import { cropOfColumn } from '../../lib/photoCrop';
import type { ImageInfo, Post } from '../../lib/types';
import { mentionList } from '../mentions/names';
import type { PostListRow } from './repository';

export function toPost(row: PostListRow, imageInfo: ImageInfo | null): Post {
  return {
    _id: row.id,
    message: row.message,
    image: row.image,
    imageInfo,
    tags: JSON.parse(row.tags) as string[],
    creator: row.creator,
    ...(row.creator_name !== null && { creatorName: row.creator_name }),
    creatorImage: row.creator_image,
    likesCount: Number(row.likes_count),
    dislikesCount: Number(row.dislikes_count),
    commentsCount: Number(row.comments_count),
    myReaction: row.my_reaction ?? null,
    alt: row.alt,
    sensitive: Number(row.sensitive) === 1,
    spoiler: row.spoiler,
    crop: cropOfColumn(row.crop),
    mentions: mentionList(row.mentions, row.message),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.original_url !== null && { originalUrl: row.original_url }),
    ...(row.original_uri !== null && { originalUri: row.original_uri }),
    audience: row.audience,
  };
}
