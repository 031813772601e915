/**
 * The dark gray theme's colours (themes/darkGray.ts) for the server's own plain HTML pages (the
 * OAuth consent page, a public post's preview): the server may not import client code.
 */
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
