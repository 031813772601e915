/** Explore (issue 73): trending tags and posts, people to follow. */
export { ExplorePage } from './components/ExplorePage';
