/** A full page load of a path the Next.js router does not serve (the OAuth consent page, rendered by the server). */
export function loadServerPage(path: string): void {
  window.location.assign(path);
}
