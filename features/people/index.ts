/**
 * People in lists (issue 68, items 29 and 30): a person's card with Follow / Following, for a
 * profile's followers and following, a post's likers and a follow notification's Follow back.
 * A feature of its own so posts, profile and notifications may all use it without a cycle.
 */
export { FollowButton } from './components/FollowButton';
export { PeopleGrid, PeopleList } from './components/PeopleList';
