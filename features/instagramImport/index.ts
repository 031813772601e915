/** Instagram archives imported as posts (issue 76): Settings' section, loaded on demand. */
export { LazyInstagramImport } from './components/LazyInstagramImport';
