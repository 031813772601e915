import { createReducer } from '@reduxjs/toolkit';
import { deletePost, fetchMorePosts, fetchPosts, messageOf, sourceKey, type PostSource } from './thunks';

/** The list of posts on screen (a feed, a tag, a profile): ids into the stored posts, and its paging. */
export interface PostList {
  key: string | null;
  source: PostSource | null;
  ids: string[];
  next: string | null;
  status: 'idle' | 'loading' | 'loadingMore' | 'done' | 'failed';
  error: string | null;
}

const emptyList = (): PostList => ({ key: null, source: null, ids: [], next: null, status: 'idle', error: null });

export default createReducer(emptyList(), (builder) => {
  builder
    .addCase(fetchPosts.pending, (list, action) => {
      const key = sourceKey(action.meta.arg);
      // A refresh of the same list keeps the posts on screen; a new list starts blank.
      if (list.key !== key) return { ...emptyList(), key, source: action.meta.arg, status: 'loading' };
      list.status = 'loading';
      list.error = null;
    })
    .addCase(fetchPosts.fulfilled, (list, action) => {
      if (list.key !== sourceKey(action.meta.arg)) return;
      list.ids = action.payload.items.map((post) => post._id);
      list.next = action.payload.next;
      list.status = 'done';
    })
    .addCase(fetchPosts.rejected, (list, action) => {
      if (list.key !== sourceKey(action.meta.arg)) return;
      list.status = 'failed';
      list.error = messageOf(action);
    })
    .addCase(fetchMorePosts.pending, (list) => {
      list.status = 'loadingMore';
    })
    .addCase(fetchMorePosts.fulfilled, (list, action) => {
      if (list.key !== action.payload.key) return;
      const known = new Set(list.ids);
      list.ids.push(...action.payload.page.items.map((post) => post._id).filter((id) => !known.has(id)));
      list.next = action.payload.page.next;
      list.status = 'done';
    })
    .addCase(fetchMorePosts.rejected, (list, action) => {
      list.status = 'done';
      list.error = messageOf(action);
      // Stop the infinite scroll from retrying in a loop; a reload starts over.
      list.next = null;
    })
    .addCase(deletePost.fulfilled, (list, action) => {
      list.ids = list.ids.filter((id) => id !== action.payload);
    });
});
