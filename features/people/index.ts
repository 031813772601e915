/**
 * People in lists (issue 68, items 29 and 30): a person's card with Follow / Requested / Following,
 * for a profile's followers and following, a post's likers and a follow notification's Follow back;
 * the follow requests waiting for the viewer's answer (issue 70).
 * A feature of its own so posts, profile and notifications may all use it without a cycle.
 */
export { FollowButton } from './components/FollowButton';
export { FollowRequests } from './components/FollowRequests';
export { PeopleGrid, PeopleList } from './components/PeopleList';
export { FOLLOW_REQUEST_TEXTS } from './lib/followRequestTexts';
export { followRequestsApi } from './state/followRequestsApi';
