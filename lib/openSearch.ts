/**
 * Asks the signed-in navbar to open its search and put the keyboard in it (on a phone the search is
 * behind a button). A window event, so a page's "Search" needs no import of the navbar's chunk.
 */
export const OPEN_SEARCH_EVENT = 'posts:open-search';

export function openSearch(): void {
  window.dispatchEvent(new Event(OPEN_SEARCH_EVENT));
}
