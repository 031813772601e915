/** A member's profile page: header, follow buttons, their posts and connections. */
export { ProfileView } from './components/ProfileView';
