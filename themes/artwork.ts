/**
 * The landing page's collage, the same in every theme like a photo (see fixed.ts): its tiles'
 * pictures (gradients), edges, shadows and captions' ground. Only the landing imports it.
 */
export const artwork = {
  sunset: 'linear-gradient(160deg, #f6a96b 0%, #d9577a 55%, #5b2a7a 100%)',
  sea: 'linear-gradient(200deg, #7fd6c2 0%, #2f8f9d 50%, #1b3a5c 100%)',
  hiking: 'linear-gradient(140deg, #c9e47a 0%, #4f9a5a 55%, #1f4a33 100%)',
  edge: 'rgba(255, 255, 255, 0.08)',
  shadow: 'rgba(0, 0, 0, 0.45)',
  caption: 'rgba(0, 0, 0, 0.72)',
};
