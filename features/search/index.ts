/** The navbar's tag search. */
export { TagSearch } from './components/TagSearch';
