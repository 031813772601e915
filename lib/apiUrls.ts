/**
 * The API's read URLs, built one way for everyone who asks: the client's API modules, the page
 * table's first reads (lib/pages.ts), the server's first render and the early-reads script. An
 * early read is taken only when the app asks for the very same URL, so they must never differ.
 */
export type Feed = 'following' | 'all';

const user = (username: string) => `/api/users/${encodeURIComponent(username)}`;

export const apiUrls = {
  loggedUser: () => '/api/auth/getLoggedUser',
  feed: (feed: Feed) => `/api/posts?${new URLSearchParams({ feed })}`,
  tagged: (tags: readonly string[]) => `/api/posts/tagged?${new URLSearchParams({ tags: tags.join(',') })}`,
  post: (id: string) => `/api/posts/${encodeURIComponent(id)}`,
  user,
  userPosts: (username: string) => `${user(username)}/posts`,
  /** The viewer's saved posts (issue 73). */
  saved: () => '/api/posts/saved',
  /** One tag as the viewer sees it: `{ name, following }` (issue 73). */
  tag: (name: string) => `/api/tags/${encodeURIComponent(name)}`,
  /** The tags the viewer follows (issue 73). */
  followedTags: () => '/api/tags',
  /** Trending posts and tags, people to follow (issue 73). */
  explore: () => '/api/explore',
  instance: () => '/api/instance',
  notifications: () => '/api/notifications',
};
