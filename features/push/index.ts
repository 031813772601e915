/** Web Push on this device (issue 74, item 2): Settings' section, loaded on demand. */
export { LazyPushSettings } from './components/LazyPushSettings';
