/** Moving in and out (issue 76): Settings' section for Mastodon's CSV lists, loaded on demand. */
export { LazyMovingSettings } from './components/LazyMovingSettings';
