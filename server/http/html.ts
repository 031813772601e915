/**
 * What the server's own plain HTML pages share (the OAuth consent page, a public post's preview):
 * the escaping every text and attribute value goes through, and the dark gray theme's colours
 * (themes/darkGray.ts; the server may not import client code).
 */

/** Text or an attribute value (double- or single-quoted) as HTML. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const DARK_GRAY = {
  bg: '#1c1c21',
  surface: '#26262c',
  surfaceRaised: '#303038',
  border: '#44444e',
  text: '#f3f3f6',
  textMuted: '#b9b9c4',
  accent: '#8fb3ff',
  onAccent: '#0b1633',
  focus: '#c7d8ff',
};
