import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { TEXTS } from '../../../lib/texts';
import type { Comment, Post, PostWithComments, ReactionCounts } from '../../../lib/types';
import { errorMessage, type Page } from '../../../services/apiClient';
import { postsApi, type Feed, type PostInput } from '../postsApi';
import type { RootState } from '../../../store/index';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { notify } from '../../notifications/notificationsSlice';
import { done, failed, idle, started, type ActionStatus } from '../../../store/status';

/** Where a list of posts comes from. */
export type PostSource =
  | { kind: 'feed'; feed: Feed }
  | { kind: 'tagged'; tags: string[] }
  | { kind: 'user'; username: string };

export const sourceKey = (source: PostSource): string =>
  source.kind === 'feed' ? `feed:${source.feed}` : source.kind === 'tagged' ? `tagged:${source.tags.join(',')}` : `user:${source.username}`;

export interface PostList {
  key: string | null;
  source: PostSource | null;
  items: Post[];
  next: string | null;
  status: 'idle' | 'loading' | 'loadingMore' | 'done' | 'failed';
  error: string | null;
}

export interface CurrentPost {
  post: PostWithComments | null;
  loading: boolean;
  error: string | null;
  commentsNext: string | null;
  commentsLoading: boolean;
}

export interface PostsState {
  list: PostList;
  currentPost: CurrentPost;
  create: ActionStatus;
  edit: ActionStatus;
  delete: ActionStatus;
  like: ActionStatus;
  dislike: ActionStatus;
  addComment: ActionStatus;
  /** Liking and disliking a comment share this slot (spec section 4). */
  likeComment: ActionStatus;
  editor: { open: boolean; post: Post | null };
}

const emptyList = (): PostList => ({ key: null, source: null, items: [], next: null, status: 'idle', error: null });
const emptyCurrentPost = (): CurrentPost => ({ post: null, loading: false, error: null, commentsNext: null, commentsLoading: false });

const initialState: PostsState = {
  list: emptyList(),
  currentPost: emptyCurrentPost(),
  create: idle(),
  edit: idle(),
  delete: idle(),
  like: idle(),
  dislike: idle(),
  addComment: idle(),
  likeComment: idle(),
  editor: { open: false, post: null },
};

function fetchSource(source: PostSource): Promise<Page<Post>> {
  if (source.kind === 'feed') return postsApi.feed(source.feed);
  if (source.kind === 'tagged') return postsApi.tagged(source.tags);
  return postsApi.byUser(source.username);
}

/** Runs a call that needs a signed-in user; failures become the toast and the rejected value. */
async function guarded<T>(
  state: RootState,
  dispatch: (action: unknown) => unknown,
  call: (userId: string) => Promise<T>,
  success?: string,
): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  const user = state.auth.user;
  try {
    if (!user) throw new Error(TEXTS.notLoggedIn);
    const value = await call(user._id);
    if (success) dispatch(notify(success, 'success'));
    return { ok: true, value };
  } catch (error) {
    const message = errorMessage(error);
    dispatch(notify(message, 'error'));
    return { ok: false, message };
  }
}

export const fetchPosts = createAppAsyncThunk('posts/fetchPosts', async (source: PostSource, { rejectWithValue }) => {
  try {
    return await fetchSource(source);
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

export const fetchMorePosts = createAppAsyncThunk(
  'posts/fetchMorePosts',
  async (_: void, { getState, rejectWithValue }) => {
    const { next, key } = getState().posts.list;
    try {
      return { key, page: await postsApi.page(next as string) };
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
  {
    condition: (_, { getState }) => {
      const { next, status } = getState().posts.list;
      return Boolean(next) && status === 'done';
    },
  },
);

export const fetchPost = createAppAsyncThunk('posts/fetchPost', async (id: string, { rejectWithValue }) => {
  try {
    return await postsApi.get(id);
  } catch (error) {
    return rejectWithValue(errorMessage(error));
  }
});

export const fetchMoreComments = createAppAsyncThunk(
  'posts/fetchMoreComments',
  async (_: void, { getState, rejectWithValue }) => {
    try {
      return await postsApi.commentsPage(getState().posts.currentPost.commentsNext as string);
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
  { condition: (_, { getState }) => Boolean(getState().posts.currentPost.commentsNext) && !getState().posts.currentPost.commentsLoading },
);

export const createPost = createAppAsyncThunk('posts/createPost', async (input: PostInput, { getState, dispatch, rejectWithValue }) => {
  const user = getState().auth.user;
  const result = await guarded(getState(), dispatch, () =>
    postsApi.create({ ...input, creator: user?.username ?? '', creatorImage: user?.avatar ?? null }),
  );
  if (!result.ok) return rejectWithValue(result.message);
  const source = getState().posts.list.source;
  if (source) void dispatch(fetchPosts(source));
  return result.value;
});

export const editPost = createAppAsyncThunk(
  'posts/editPost',
  async ({ id, post }: { id: string; post: Partial<PostInput> }, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), dispatch, () => postsApi.edit(id, post), TEXTS.postEdited);
    return result.ok ? result.value : rejectWithValue(result.message);
  },
);

export const deletePost = createAppAsyncThunk('posts/deletePost', async (id: string, { getState, dispatch, rejectWithValue }) => {
  const result = await guarded(getState(), dispatch, () => postsApi.remove(id), TEXTS.postDeleted);
  return result.ok ? id : rejectWithValue(result.message);
});

export const likePost = createAppAsyncThunk('posts/likePost', async (id: string, { getState, dispatch, rejectWithValue }) => {
  const result = await guarded(getState(), dispatch, (userId) => postsApi.like(id, userId), TEXTS.liked);
  return result.ok ? { id, counts: result.value } : rejectWithValue(result.message);
});

export const dislikePost = createAppAsyncThunk('posts/dislikePost', async (id: string, { getState, dispatch, rejectWithValue }) => {
  const result = await guarded(getState(), dispatch, (userId) => postsApi.dislike(id, userId), TEXTS.disliked);
  return result.ok ? { id, counts: result.value } : rejectWithValue(result.message);
});

export const addComment = createAppAsyncThunk(
  'posts/addComment',
  async ({ postId, message }: { postId: string; message: string }, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), dispatch, (userId) => postsApi.addComment(postId, message, userId), TEXTS.commentAdded);
    return result.ok ? { postId, comment: result.value } : rejectWithValue(result.message);
  },
);

type CommentArgs = { postId: string; commentId: string };

export const likeComment = createAppAsyncThunk(
  'posts/likeComment',
  async ({ postId, commentId }: CommentArgs, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), dispatch, (userId) => postsApi.likeComment(postId, commentId, userId), TEXTS.likedComment);
    return result.ok ? result.value : rejectWithValue(result.message);
  },
);

export const dislikeComment = createAppAsyncThunk(
  'posts/dislikeComment',
  async ({ postId, commentId }: CommentArgs, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), dispatch, (userId) => postsApi.dislikeComment(postId, commentId, userId), TEXTS.dislikedComment);
    return result.ok ? result.value : rejectWithValue(result.message);
  },
);

/** Not one of the spec's tracked actions, so it has no loading/error slot; failures still toast. */
export const deleteComment = createAppAsyncThunk(
  'posts/deleteComment',
  async ({ postId, commentId }: CommentArgs, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), dispatch, () => postsApi.deleteComment(postId, commentId));
    return result.ok ? { postId, commentId } : rejectWithValue(result.message);
  },
);

type Rejected = { payload?: string; error: { message?: string } };
const messageOf = (action: Rejected) => action.payload ?? action.error.message;

function updatePost(state: PostsState, id: string, change: (post: Post) => void) {
  for (const post of state.list.items) if (post._id === id) change(post);
  if (state.currentPost.post?._id === id) change(state.currentPost.post);
}

function applyReaction(post: Post | Comment, counts: ReactionCounts) {
  post.likesCount = counts.likesCount;
  post.dislikesCount = counts.dislikesCount;
  post.myReaction = counts.myReaction;
}

const postsSlice = createSlice({
  name: 'posts',
  initialState,
  reducers: {
    postCleared(state) {
      state.currentPost = emptyCurrentPost();
    },
    editorOpened(state, action: PayloadAction<Post | null>) {
      state.editor = { open: true, post: action.payload };
      state.create = idle();
      state.edit = idle();
    },
    editorClosed(state) {
      state.editor = { open: false, post: null };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchPosts.pending, (state, action) => {
        const key = sourceKey(action.meta.arg);
        // A refresh of the same list keeps the posts on screen; a new list starts blank.
        if (state.list.key !== key) state.list = { ...emptyList(), key, source: action.meta.arg };
        state.list.status = 'loading';
        state.list.error = null;
      })
      .addCase(fetchPosts.fulfilled, (state, action) => {
        if (state.list.key !== sourceKey(action.meta.arg)) return;
        state.list.items = action.payload.items;
        state.list.next = action.payload.next;
        state.list.status = 'done';
      })
      .addCase(fetchPosts.rejected, (state, action) => {
        if (state.list.key !== sourceKey(action.meta.arg)) return;
        state.list.status = 'failed';
        state.list.error = messageOf(action) ?? null;
      })
      .addCase(fetchMorePosts.pending, (state) => {
        state.list.status = 'loadingMore';
      })
      .addCase(fetchMorePosts.fulfilled, (state, action) => {
        if (state.list.key !== action.payload.key) return;
        const known = new Set(state.list.items.map((p) => p._id));
        state.list.items.push(...action.payload.page.items.filter((p) => !known.has(p._id)));
        state.list.next = action.payload.page.next;
        state.list.status = 'done';
      })
      .addCase(fetchMorePosts.rejected, (state, action) => {
        state.list.status = 'done';
        state.list.error = messageOf(action) ?? null;
        // Stop the infinite scroll from retrying in a loop; a reload starts over.
        state.list.next = null;
      })
      .addCase(fetchPost.pending, (state) => {
        state.currentPost.loading = true;
        state.currentPost.error = null;
      })
      .addCase(fetchPost.fulfilled, (state, action) => {
        state.currentPost = { ...emptyCurrentPost(), post: action.payload.post, commentsNext: action.payload.commentsNext };
      })
      .addCase(fetchPost.rejected, (state, action) => {
        state.currentPost.loading = false;
        state.currentPost.error = messageOf(action) ?? null;
      })
      .addCase(fetchMoreComments.pending, (state) => {
        state.currentPost.commentsLoading = true;
      })
      .addCase(fetchMoreComments.fulfilled, (state, action) => {
        const current = state.currentPost;
        current.commentsLoading = false;
        current.commentsNext = action.payload.next;
        if (!current.post) return;
        const known = new Set(current.post.comments.map((c) => c.commentId));
        current.post.comments.push(...action.payload.items.filter((c) => !known.has(c.commentId)));
      })
      .addCase(fetchMoreComments.rejected, (state) => {
        state.currentPost.commentsLoading = false;
        state.currentPost.commentsNext = null;
      })
      .addCase(createPost.pending, (state) => started(state.create))
      .addCase(createPost.fulfilled, (state) => done(state.create))
      .addCase(createPost.rejected, (state, action) => failed(state.create, messageOf(action)))
      .addCase(editPost.pending, (state) => started(state.edit))
      .addCase(editPost.fulfilled, (state, action) => {
        done(state.edit);
        updatePost(state, action.payload._id, (post) => Object.assign(post, action.payload));
      })
      .addCase(editPost.rejected, (state, action) => failed(state.edit, messageOf(action)))
      .addCase(deletePost.pending, (state) => started(state.delete))
      .addCase(deletePost.fulfilled, (state, action) => {
        done(state.delete);
        state.list.items = state.list.items.filter((p) => p._id !== action.payload);
      })
      .addCase(deletePost.rejected, (state, action) => failed(state.delete, messageOf(action)))
      .addCase(likePost.pending, (state) => started(state.like))
      .addCase(likePost.fulfilled, (state, action) => {
        done(state.like);
        updatePost(state, action.payload.id, (post) => applyReaction(post, action.payload.counts));
      })
      .addCase(likePost.rejected, (state, action) => failed(state.like, messageOf(action)))
      .addCase(dislikePost.pending, (state) => started(state.dislike))
      .addCase(dislikePost.fulfilled, (state, action) => {
        done(state.dislike);
        updatePost(state, action.payload.id, (post) => applyReaction(post, action.payload.counts));
      })
      .addCase(dislikePost.rejected, (state, action) => failed(state.dislike, messageOf(action)))
      .addCase(addComment.pending, (state) => started(state.addComment))
      .addCase(addComment.fulfilled, (state, action) => {
        done(state.addComment);
        const { postId, comment } = action.payload;
        updatePost(state, postId, (post) => {
          post.commentsCount += 1;
        });
        if (state.currentPost.post?._id === postId) state.currentPost.post.comments.unshift(comment);
      })
      .addCase(addComment.rejected, (state, action) => failed(state.addComment, messageOf(action)))
      .addCase(deleteComment.fulfilled, (state, action) => {
        const { postId, commentId } = action.payload;
        updatePost(state, postId, (post) => {
          post.commentsCount = Math.max(0, post.commentsCount - 1);
        });
        const current = state.currentPost.post;
        if (current?._id === postId) current.comments = current.comments.filter((c) => c.commentId !== commentId);
      });

    for (const thunk of [likeComment, dislikeComment]) {
      builder
        .addCase(thunk.pending, (state) => started(state.likeComment))
        .addCase(thunk.fulfilled, (state, action) => {
          done(state.likeComment);
          const comment = state.currentPost.post?.comments.find((c) => c.commentId === action.payload.commentId);
          if (comment) applyReaction(comment, action.payload);
        })
        .addCase(thunk.rejected, (state, action) => failed(state.likeComment, messageOf(action)));
    }
  },
});

export const { postCleared, editorOpened, editorClosed } = postsSlice.actions;
export default postsSlice.reducer;

export const selectPostList = (state: RootState) => state.posts.list;
export const selectCurrentPost = (state: RootState) => state.posts.currentPost;
export const selectEditor = (state: RootState) => state.posts.editor;
export const selectPostsState = (state: RootState) => state.posts;
