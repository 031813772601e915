import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Post } from '../../../lib/types';

/** The create/edit modal: open or not, and the id of the post being edited (null: a new post). */
export interface EditorState {
  open: boolean;
  postId: string | null;
}

const initialState: EditorState = { open: false, postId: null };

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
