/** The posts feature (posts and their comments): what pages, the shell and other features may use. */
import { lazy } from 'react';

export { HomeFeed } from './components/HomeFeed';
export { PostDetail } from './components/PostDetail';
export { PostList } from './components/PostList';
export { SavedPosts } from './components/SavedPosts';
export { TaggedPosts } from './components/TaggedPosts';
export { editorOpened } from './state/editor';
export { selectEditor } from './state/editor';

/**
 * The posts' state joins the store with their code (state/postsSlice.ts), the editor's with it: a
 * screen without posts (settings, the navbar there) loads it before opening the editor.
 */
export const loadPostsState = () => import('./state/postsSlice');

/**
 * The create/edit modal: its code (and the dropzone's, formik's and yup's) loads only when someone
 * opens it; render it inside a Suspense boundary. React.lazy rather than next/dynamic, which would
 * add its loader to every page's first load (docs/frontend.md, Performance).
 */
export const PostEditor = lazy(() => import('./components/PostEditor'));
