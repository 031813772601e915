/**
 * Loads the page again from the server, in the language just chosen: the server sets `<html lang>`
 * and Arabic's `dir="rtl"`, which a client-side data reload would leave as they were.
 */
export function reloadPage(): void {
  window.location.reload();
}
