import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Post } from '../../../lib/types';
import type { RootState } from '../../../store/index';

/** The create/edit modal: open or not, and the id of the post being edited (null: a new post). */
export interface EditorState {
  open: boolean;
  postId: string | null;
}

export const EDITOR_CLOSED: EditorState = { open: false, postId: null };
const initialState = EDITOR_CLOSED;

const editorSlice = createSlice({
  name: 'posts/editor',
  initialState,
  reducers: {
    /** Opens the editor on a post (stored by the `stored` reducer too), or on a new one. */
    editorOpened(_, action: PayloadAction<Post | null>) {
      return { open: true, postId: action.payload?._id ?? null };
    },
    editorClosed() {
      return initialState;
    },
  },
});

export const { editorOpened, editorClosed } = editorSlice.actions;
export default editorSlice.reducer;

// The shell reads the editor on every page, those without the posts' code too: closed there.
const selectEditorState = (state: RootState) => state.posts?.editor ?? EDITOR_CLOSED;
const selectEditedPost = (state: RootState) => {
  const id = state.posts?.editor.postId;
  return id ? state.posts?.stored.entities[id] : undefined;
};

/** The editor: open or not, and the post it edits (null for a new post). */
export const selectEditor = createSelector([selectEditorState, selectEditedPost], (editor, post) => ({
  open: editor.open,
  post: post ?? null,
}));
