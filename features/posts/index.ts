/** The posts feature (posts and their comments): what pages, the shell and other features may use. */
import dynamic from 'next/dynamic';

export { HomeFeed } from './components/HomeFeed';
export { PostDetail } from './components/PostDetail';
export { PostList } from './components/PostList';
export { TagChip } from './components/TagChip';
export { TaggedPosts } from './components/TaggedPosts';
export { editorOpened } from './state/editor';
export { selectEditor } from './state/selectors';

/** The create/edit modal: its code (and the dropzone's) loads only when someone opens it. */
export const PostEditor = dynamic(() => import('./components/PostEditor'), { ssr: false });
