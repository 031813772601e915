import { textOf } from '../../../lib/i18n/appTexts';
import type { RootState } from '../../../store/index';
import { thunkToasts, type ToastListener } from '../../../store/toasts';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { errorMessage, type Page } from '../../../services/apiClient';
import type { Post } from '../../../lib/types';
import { postsApi, type PostInput } from './postsApi';
import type { PostSource } from './source';

export { sourceKey, type PostSource } from './source';

/**
 * The thunks are dispatched by the posts' screens, whose code put the slice in the store
 * (postsSlice.ts) and has since dispatched (the screens' first reads) before any of these reads it.
 */
function postsIn(state: RootState) {
  if (!state.posts) throw new Error('The posts state was read before the posts code loaded');
  return state.posts;
}

function fetchSource(source: PostSource): Promise<Page<Post>> {
  if (source.kind === 'feed') return postsApi.feed(source.feed);
  if (source.kind === 'tagged') return postsApi.tagged(source.tags);
  if (source.kind === 'saved') return postsApi.saved();
  if (source.kind === 'explore') return postsApi.explore();
  return postsApi.byUser(source.username);
}

/** Runs a call that needs a signed-in user; a failure becomes the rejected value (and its toast). */
async function guarded<T>(
  state: RootState,
  call: (userId: string) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  const user = state.auth.user;
  try {
    if (!user) throw new Error(textOf('posts.notLoggedIn'));
    return { ok: true, value: await call(user._id) };
  } catch (error) {
    return { ok: false, message: errorMessage(error) };
  }
}

// The reads below show their errors on their page (the list, the post), not as toasts.

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
    const { next, key } = postsIn(getState()).list;
    try {
      return { key, page: await postsApi.page(next as string) };
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
  {
    condition: (_, { getState }) => {
      const { next, status } = postsIn(getState()).list;
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
      return await postsApi.commentsPage(postsIn(getState()).currentPost.commentsNext as string);
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
  {
    condition: (_, { getState }) =>
      Boolean(postsIn(getState()).currentPost.commentsNext) && !postsIn(getState()).currentPost.commentsLoading,
  },
);

// The actions below need a signed-in user; their failures show as error toasts.

export const createPost = createAppAsyncThunk(
  'posts/createPost',
  async (input: PostInput, { getState, dispatch, rejectWithValue }) => {
    const user = getState().auth.user;
    const result = await guarded(getState(), () =>
      postsApi.create({ ...input, creator: user?.username ?? '', creatorImage: user?.avatar ?? null }),
    );
    if (!result.ok) return rejectWithValue(result.message);
    const source = postsIn(getState()).list.source;
    if (source) void dispatch(fetchPosts(source));
    return result.value;
  },
);

/** The spec (section 7): after an edit, the list and that post are read again. */
export const editPost = createAppAsyncThunk(
  'posts/editPost',
  async ({ id, post }: { id: string; post: Partial<PostInput> }, { getState, dispatch, rejectWithValue }) => {
    const result = await guarded(getState(), () => postsApi.edit(id, post));
    if (!result.ok) return rejectWithValue(result.message);
    const { list, currentPost } = postsIn(getState());
    if (list.source) void dispatch(fetchPosts(list.source));
    if (currentPost.id === id) void dispatch(fetchPost(id));
    return result.value;
  },
);

export const deletePost = createAppAsyncThunk('posts/deletePost', async (id: string, { getState, rejectWithValue }) => {
  const result = await guarded(getState(), () => postsApi.remove(id));
  return result.ok ? id : rejectWithValue(result.message);
});

export const likePost = createAppAsyncThunk('posts/likePost', async (id: string, { getState, rejectWithValue }) => {
  const result = await guarded(getState(), (userId) => postsApi.like(id, userId));
  return result.ok ? { id, counts: result.value } : rejectWithValue(result.message);
});

export const dislikePost = createAppAsyncThunk(
  'posts/dislikePost',
  async (id: string, { getState, rejectWithValue }) => {
    const result = await guarded(getState(), (userId) => postsApi.dislike(id, userId));
    return result.ok ? { id, counts: result.value } : rejectWithValue(result.message);
  },
);

/** Saves the post for the viewer (issue 73), or unsaves it: the answer is the post as they see it now. */
export const savePost = createAppAsyncThunk(
  'posts/savePost',
  async ({ id, saved }: { id: string; saved: boolean }, { getState, rejectWithValue }) => {
    const result = await guarded(getState(), () => postsApi.save(id, saved));
    return result.ok ? result.value : rejectWithValue(result.message);
  },
);

export const addComment = createAppAsyncThunk(
  'posts/addComment',
  async ({ postId, message }: { postId: string; message: string }, { getState, rejectWithValue }) => {
    const result = await guarded(getState(), (userId) => postsApi.addComment(postId, message, userId));
    return result.ok ? { postId, comment: result.value } : rejectWithValue(result.message);
  },
);

type CommentArgs = { postId: string; commentId: string };

export const likeComment = createAppAsyncThunk(
  'posts/likeComment',
  async ({ postId, commentId }: CommentArgs, { getState, rejectWithValue }) => {
    const result = await guarded(getState(), (userId) => postsApi.likeComment(postId, commentId, userId));
    return result.ok ? result.value : rejectWithValue(result.message);
  },
);

export const dislikeComment = createAppAsyncThunk(
  'posts/dislikeComment',
  async ({ postId, commentId }: CommentArgs, { getState, rejectWithValue }) => {
    const result = await guarded(getState(), (userId) => postsApi.dislikeComment(postId, commentId, userId));
    return result.ok ? result.value : rejectWithValue(result.message);
  },
);

/** Not one of the spec's tracked actions, so it has no loading/error slot; failures still toast. */
export const deleteComment = createAppAsyncThunk(
  'posts/deleteComment',
  async ({ postId, commentId }: CommentArgs, { getState, rejectWithValue }) => {
    const result = await guarded(getState(), () => postsApi.deleteComment(postId, commentId));
    return result.ok ? { postId, commentId } : rejectWithValue(result.message);
  },
);

/**
 * The posts' toasts (the store starts them). The reads show their errors on their page (the list,
 * the post), not as toasts; the actions toast their failures, and the reactions toast only when the
 * answer says the reaction is set (a toggle taken back says nothing). Each text is read when the
 * toast is raised, in the language the app shows then.
 */
export const postsToasts: ToastListener[] = [
  ...thunkToasts(createPost),
  ...thunkToasts(editPost, { success: () => textOf('posts.toasts.edited') }),
  ...thunkToasts(deletePost, { success: () => textOf('posts.toasts.deleted') }),
  ...thunkToasts(likePost, {
    success: (_, { counts }) => (counts.myReaction === 'like' ? textOf('posts.toasts.liked') : null),
  }),
  ...thunkToasts(dislikePost, {
    success: (_, { counts }) => (counts.myReaction === 'dislike' ? textOf('posts.toasts.disliked') : null),
  }),
  ...thunkToasts(savePost, {
    success: (_, post) => (post.savedByMe ? textOf('posts.toasts.saved') : textOf('posts.toasts.unsaved')),
  }),
  ...thunkToasts(addComment, { success: () => textOf('comments.toasts.added') }),
  ...thunkToasts(likeComment, {
    success: (_, result) => (result.myReaction === 'like' ? textOf('comments.toasts.liked') : null),
  }),
  ...thunkToasts(dislikeComment, {
    success: (_, result) => (result.myReaction === 'dislike' ? textOf('comments.toasts.disliked') : null),
  }),
  ...thunkToasts(deleteComment),
];

type Rejected = { payload?: string; error: { message?: string } };
export const messageOf = (action: Rejected) => action.payload ?? action.error.message ?? null;
