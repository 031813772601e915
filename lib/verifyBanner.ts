/**
 * "Remind me tomorrow" on the verify-email banner (issue 68, item 15): hidden for a day, not for
 * good. The time it stays hidden until is kept in localStorage; the document's first script
 * (`hideVerifyBannerScript`, in pages/_document.tsx) marks `<html data-verify-hidden>` before the body
 * is parsed, and the page-wide CSS hides the banner, so a page the server drew with the banner
 * neither flashes it nor moves when it goes.
 */
export const VERIFY_BANNER_HIDDEN_KEY = 'verifyBannerHiddenUntil';
export const VERIFY_BANNER_HIDDEN_ATTR = 'data-verify-hidden';
export const VERIFY_BANNER_HIDE_MS = 24 * 60 * 60 * 1000;

export const hideVerifyBannerScript = `(function(){try{if(Number(localStorage.getItem(${JSON.stringify(
  VERIFY_BANNER_HIDDEN_KEY,
)}))>Date.now())document.documentElement.setAttribute(${JSON.stringify(VERIFY_BANNER_HIDDEN_ATTR)},'')}catch(e){}})();`;

/** Hides the banner for a day, on this page at once. */
export function hideVerifyBannerForADay(now = Date.now()): void {
  try {
    localStorage.setItem(VERIFY_BANNER_HIDDEN_KEY, String(now + VERIFY_BANNER_HIDE_MS));
  } catch {
    // Storage refused (private mode): hidden on this page only.
  }
  document.documentElement.setAttribute(VERIFY_BANNER_HIDDEN_ATTR, '');
}
