/**
 * Colours that are the same in every theme, so they are constants here rather than CSS variables
 * (palette.ts): what is drawn over a photo or over the landing's artwork (a photo looks the same
 * whatever the theme), and the QR code's light ground (scanners need dark on light). Only the
 * components that draw them import this file, so it stays out of the shared first load.
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
};

/** The landing page's collage: its tiles' pictures (gradients), edges, shadows and captions. */
export const artwork = {
  sunset: 'linear-gradient(160deg, #f6a96b 0%, #d9577a 55%, #5b2a7a 100%)',
  sea: 'linear-gradient(200deg, #7fd6c2 0%, #2f8f9d 50%, #1b3a5c 100%)',
  hiking: 'linear-gradient(140deg, #c9e47a 0%, #4f9a5a 55%, #1f4a33 100%)',
  edge: 'rgba(255, 255, 255, 0.08)',
  shadow: 'rgba(0, 0, 0, 0.45)',
  caption: 'rgba(0, 0, 0, 0.72)',
};

/** Behind the two-factor QR code. */
export const qrGround = '#fff';
