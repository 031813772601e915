import type { Comment, Explore, Post, PostWithComments, ReactionCounts } from '../../../lib/types';
import type { Audience } from '../../../lib/audience';
import type { PhotoCrop } from '../../../lib/photoCrop';
import { apiUrls, type Feed } from '../../../lib/apiUrls';
import { nextLink } from '../../../lib/links';
import { apiClient, getPage, type Page } from '../../../services/apiClient';

export type { Feed };

export interface PostInput {
  message: string;
  /** One photo (as before albums), or `images`: the whole ordered list (issue 71). */
  image?: string;
  images?: { image: string; alt: string; crop: PhotoCrop }[];
  tags: string[];
  alt?: string;
  sensitive?: boolean;
  spoiler?: string;
  crop?: PhotoCrop;
  audience?: Audience;
}

export interface CommentReaction extends ReactionCounts {
  commentId: string;
}

export const postsApi = {
  feed: (feed: Feed): Promise<Page<Post>> => getPage<Post>(apiUrls.feed(feed)),
  tagged: (tags: string[]): Promise<Page<Post>> => getPage<Post>(apiUrls.tagged(tags)),
  byUser: (username: string): Promise<Page<Post>> => getPage<Post>(apiUrls.userPosts(username)),
  saved: (): Promise<Page<Post>> => getPage<Post>(apiUrls.saved()),
  /** Explore's trending posts (issue 73): the first page, ranked; the next ones from its `Link`. */
  async explore(): Promise<Page<Post>> {
    const response = await apiClient.get<Explore>(apiUrls.explore());
    return { items: response.data.posts, next: nextLink(response.headers.link) };
  },
  /** Follows a `Link: rel="next"` URL given by the server. */
  page: (url: string): Promise<Page<Post>> => getPage<Post>(url),

  /** The post with its newest comments; `commentsNext` (its `Link` header) is where older ones are. */
  async get(id: string): Promise<{ post: PostWithComments; commentsNext: string | null }> {
    const response = await apiClient.get<PostWithComments>(apiUrls.post(id));
    return { post: response.data, commentsNext: nextLink(response.headers.link) };
  },
  async create(input: PostInput & { creator: string; creatorImage: string | null }): Promise<Post> {
    return (await apiClient.post<Post>('/api/posts/create', input)).data;
  },
  async edit(id: string, post: Partial<PostInput>): Promise<Post> {
    return (await apiClient.patch<Post>(`/api/posts/${encodeURIComponent(id)}/manage`, { post })).data;
  },
  async remove(id: string): Promise<void> {
    await apiClient.delete(`/api/posts/${encodeURIComponent(id)}/manage`);
  },
  async like(id: string, userId: string): Promise<ReactionCounts> {
    return (await apiClient.patch<ReactionCounts>(`/api/posts/${encodeURIComponent(id)}/like`, { userId })).data;
  },
  async dislike(id: string, userId: string): Promise<ReactionCounts> {
    return (await apiClient.patch<ReactionCounts>(`/api/posts/${encodeURIComponent(id)}/dislike`, { userId })).data;
  },

  /** `PUT` saves, `DELETE` unsaves; either answers the post (`savedByMe`). */
  async save(id: string, saved: boolean): Promise<Post> {
    const url = `/api/posts/${encodeURIComponent(id)}/save`;
    return (await apiClient.request<Post>({ method: saved ? 'PUT' : 'DELETE', url })).data;
  },

  commentsPage: (url: string): Promise<Page<Comment>> => getPage<Comment>(url),
  async addComment(postId: string, message: string, userId: string): Promise<Comment> {
    return (await apiClient.post<Comment>(`/api/posts/${encodeURIComponent(postId)}/comments`, { message, userId }))
      .data;
  },
  async deleteComment(postId: string, commentId: string): Promise<void> {
    await apiClient.delete(`/api/posts/${encodeURIComponent(postId)}/comments/${encodeURIComponent(commentId)}`);
  },
  async likeComment(postId: string, commentId: string, userId: string): Promise<CommentReaction> {
    return (
      await apiClient.patch<CommentReaction>(`/api/posts/${encodeURIComponent(postId)}/comments/like`, {
        userId,
        commentId,
      })
    ).data;
  },
  async dislikeComment(postId: string, commentId: string, userId: string): Promise<CommentReaction> {
    return (
      await apiClient.patch<CommentReaction>(`/api/posts/${encodeURIComponent(postId)}/comments/dislike`, {
        userId,
        commentId,
      })
    ).data;
  },
};
