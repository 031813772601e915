import { lazy } from 'react';

/**
 * The `@mention` list of a textarea, in its own chunk: a form renders it (inside a
 * `position: relative` box around the field) once its text holds an `@`, so a page without
 * mentions never loads it.
 */
export const MentionSuggestions = lazy(() => import('./components/MentionSuggestions'));
