import { TEXTS } from '../../../lib/texts';
import type { RootState } from '../../../store/index';
import { isSessionLost, sessionLost } from '../../../store/sessionLost';
import { declareToasts } from '../../../store/thunkToasts';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { errorMessage, type Page } from '../../../services/apiClient';
import type { Post } from '../../../lib/types';
import { postsApi, type Feed, type PostInput } from '../postsApi';

/** Where a list of posts comes from. */
export type PostSource =
  { kind: 'feed'; feed: Feed } | { kind: 'tagged'; tags: string[] } | { kind: 'user'; username: string };

export const sourceKey = (source: PostSource): string =>
  source.kind === 'feed'
    ? `feed:${source.feed}`
    : source.kind === 'tagged'
      ? `tagged:${source.tags.join(',')}`
      : `user:${source.username}`;

function fetchSource(source: PostSource): Promise<Page<Post>> {
  if (source.kind === 'feed') return postsApi.feed(source.feed);
  if (source.kind === 'tagged') return postsApi.tagged(source.tags);
  return postsApi.byUser(source.username);
}

type Dispatch = (action: ReturnType<typeof sessionLost>) => unknown;

/** A failed call's message; a call refused for want of a session also signs the user out (store/sessionLost.ts). */
function failure(error: unknown, dispatch: Dispatch): string {
  if (isSessionLost(error)) dispatch(sessionLost());
  return errorMessage(error);
}

/** Runs a call that needs a signed-in user; a failure becomes the rejected value (and its toast). */
async function guarded<T>(
  state: RootState,
  call: (userId: string) => Promise<T>,
  dispatch: Dispatch,
): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  const user = state.auth.user;
  try {
    if (!user) throw new Error(TEXTS.notLoggedIn);
    return { ok: true, value: await call(user._id) };
  } catch (error) {
    return { ok: false, message: failure(error, dispatch) };
  }
}

// The reads below show their errors on their page (the list, the post), not as toasts.

export const fetchPosts = createAppAsyncThunk(
  'posts/fetchPosts',
  async (source: PostSource, { dispatch, rejectWithValue }) => {
    try {
      return await fetchSource(source);
    } catch (error) {
      return rejectWithValue(failure(error, dispatch));
    }
  },
);
declareToasts(fetchPosts, { error: false });

export const fetchMorePosts = createAppAsyncThunk(
  'posts/fetchMorePosts',
  async (_: void, { getState, dispatch, rejectWithValue }) => {
    const { next, key } = getState().posts.list;
    try {
      return { key, page: await postsApi.page(next as string) };
    } catch (error) {
      return rejectWithValue(failure(error, dispatch));
    }
  },
  {
    condition: (_, { getState }) => {
      const { next, status } = getState().posts.list;
      return Boolean(next) && status === 'done';
    },
  },
);
declareToasts(fetchMorePosts, { error: false });

export const fetchPost = createAppAsyncThunk('posts/fetchPost', async (id: string, { dispatch, rejectWithValue }) => {
  try {
    return await postsApi.get(id);
  } catch (error) {
    return rejectWithValue(failure(error, dispatch));
  }
});
declareToasts(fetchPost, { error: false });

export const fetchMoreComments = createAppAsyncThunk(
  'posts/fetchMoreComments',
  async (_: void, { getState, dispatch, rejectWithValue }) => {
    try {
      return await postsApi.commentsPage(getState().posts.currentPost.commentsNext as string);
    } catch (error) {
      return rejectWithValue(failure(error, dispatch));
    }
  },
  {
    condition: (_, { getState }) =>
      Boolean(getState().posts.currentPost.commentsNext) && !getState().posts.currentPost.commentsLoading,
  },
);
declareToasts(fetchMoreComments, { error: false });

// The actions below need a signed-in user; their failures show as error toasts.

export const createPost = createAppAsyncThunk(
  'posts/createPost',
  async (input: PostInput, { getState, dispatch, rejectWithValue }) => {
    const user = getState().auth.user;
    const result = await guarded(
      getState(),
      () => postsApi.create({ ...input, creator: user?.username ?? '', creatorImage: user?.avatar ?? null }),
      dispatch,
    );
    if (!result.ok) return rejectWithValue(result.message);
    const source = getState().posts.list.source;
    if (source) void dispatch(fetchPosts(source));
    return result.value;
  },
);

/** The spec (section 7): after an edit, the list and that post are read again. */
export const editPost = createAppAsyncThunk(
  'posts/editPost',
  async ({ id, post }: { id: string; post: Partial<PostInput> }, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), () => postsApi.edit(id, post), dispatch);
    if (!result.ok) return rejectWithValue(result.message);
    const { list, currentPost } = getState().posts;
    if (list.source) void dispatch(fetchPosts(list.source));
    if (currentPost.id === id) void dispatch(fetchPost(id));
    return result.value;
  },
);
declareToasts(editPost, { success: TEXTS.postEdited });

export const deletePost = createAppAsyncThunk(
  'posts/deletePost',
  async (id: string, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), () => postsApi.remove(id), dispatch);
    return result.ok ? id : rejectWithValue(result.message);
  },
);
declareToasts(deletePost, { success: TEXTS.postDeleted });

export const likePost = createAppAsyncThunk(
  'posts/likePost',
  async (id: string, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), (userId) => postsApi.like(id, userId), dispatch);
    return result.ok ? { id, counts: result.value } : rejectWithValue(result.message);
  },
);
// A toggle: the toast says the reaction was set, and nothing when it was taken back.
declareToasts(likePost, { success: (_, { counts }) => (counts.myReaction === 'like' ? TEXTS.liked : null) });

export const dislikePost = createAppAsyncThunk(
  'posts/dislikePost',
  async (id: string, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), (userId) => postsApi.dislike(id, userId), dispatch);
    return result.ok ? { id, counts: result.value } : rejectWithValue(result.message);
  },
);
declareToasts(dislikePost, {
  success: (_, { counts }) => (counts.myReaction === 'dislike' ? TEXTS.disliked : null),
});

export const addComment = createAppAsyncThunk(
  'posts/addComment',
  async ({ postId, message }: { postId: string; message: string }, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), (userId) => postsApi.addComment(postId, message, userId), dispatch);
    return result.ok ? { postId, comment: result.value } : rejectWithValue(result.message);
  },
);
declareToasts(addComment, { success: TEXTS.commentAdded });

type CommentArgs = { postId: string; commentId: string };

export const likeComment = createAppAsyncThunk(
  'posts/likeComment',
  async ({ postId, commentId }: CommentArgs, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), (userId) => postsApi.likeComment(postId, commentId, userId), dispatch);
    return result.ok ? result.value : rejectWithValue(result.message);
  },
);
declareToasts(likeComment, { success: (_, result) => (result.myReaction === 'like' ? TEXTS.likedComment : null) });

export const dislikeComment = createAppAsyncThunk(
  'posts/dislikeComment',
  async ({ postId, commentId }: CommentArgs, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), (userId) => postsApi.dislikeComment(postId, commentId, userId), dispatch);
    return result.ok ? result.value : rejectWithValue(result.message);
  },
);
declareToasts(dislikeComment, {
  success: (_, result) => (result.myReaction === 'dislike' ? TEXTS.dislikedComment : null),
});

/** Not one of the spec's tracked actions, so it has no loading/error slot; failures still toast. */
export const deleteComment = createAppAsyncThunk(
  'posts/deleteComment',
  async ({ postId, commentId }: CommentArgs, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), () => postsApi.deleteComment(postId, commentId), dispatch);
    return result.ok ? { postId, commentId } : rejectWithValue(result.message);
  },
);

type Rejected = { payload?: string; error: { message?: string } };
export const messageOf = (action: Rejected) => action.payload ?? action.error.message ?? null;
