/**
 * Colours that are the same in every theme, so they are constants here rather than CSS variables
 * (palette.ts): what is drawn over a photo (a photo looks the same whatever the theme), and the QR
 * code's light ground (scanners need dark on light). Only the components that draw them import this
 * file, so it stays out of the shared first load; the landing's artwork is artwork.ts, so that the
 * pages with photos do not carry it (each module is bundled whole).
 */

/** Over a photo. */
export const overImage = {
  /** Text, icons and outlines. */
  text: '#fff',
  /** Under that text, so it reads over a light photo too. */
  textShadow: 'rgb(0 0 0 / 80%)',
  /** A label's ground (a grid tile's counts). */
  label: 'rgba(0, 0, 0, 0.7)',
  /** The sensitive image's Show button. */
  button: 'rgb(0 0 0 / 55%)',
  /** A shadow under a mark drawn over the photo (the double-tap heart). */
  markShadow: 'rgb(0 0 0 / 45%)',
  /** Around a photo shown whole (the full view). */
  surround: 'rgb(0 0 0 / 92%)',
};

/** Behind the two-factor QR code. */
export const qrGround = '#fff';
