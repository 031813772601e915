/**
 * The path a full load is under way to. The login form and the shell both answer a sign-in; a
 * second `assign` of the same path would cancel the first load (`ERR_ABORTED`). A page restored
 * from the back-forward cache starts with none under way.
 */
let loading: string | null = null;
if (typeof window !== 'undefined') window.addEventListener('pageshow', () => (loading = null));

/** A full page load of a path the Next.js router does not serve (the OAuth consent page, rendered by the server). */
export function loadServerPage(path: string): void {
  if (loading === path) return;
  loading = path;
  window.location.assign(path);
}
