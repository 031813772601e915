import type { Post } from '../../lib/types';
import type { MediaRow } from '../db/schema';
import { imageInfoOf } from '../media/service';
import type { MediaStorage } from '../media/storage';
import type { PostListRow } from './repository';

export function toPost(row: PostListRow, storage: MediaStorage): Post {
  const media = row.media_variants === null ? null : {
    width: Number(row.media_width), height: Number(row.media_height), thumbhash: row.media_thumbhash, variants: row.media_variants,
  } as MediaRow;
  return {
    _id: row.id,
    message: row.message,
    image: row.image,
    imageInfo: media ? imageInfoOf(media, storage) : null,
    tags: JSON.parse(row.tags) as string[],
    creator: row.creator,
    creatorImage: row.creator_image,
    likesCount: Number(row.likes_count),
    dislikesCount: Number(row.dislikes_count),
    commentsCount: Number(row.comments_count),
    myReaction: row.my_reaction ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
