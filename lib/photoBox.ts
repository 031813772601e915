/**
 * The box a post's photo fills in feeds and grids, shared by the server (which sizes the stored
 * variants for it, server/media/pipeline.ts) and the front end (which asks for a variant with
 * `sizes`, features/posts/components/PostImage.tsx). Isomorphic, no imports.
 */

/** Feed boxes take the photo's own ratio within 4:5 (portrait) … 1.91:1 (landscape), as Instagram. */
export const FEED_RATIO_MIN = 4 / 5;
export const FEED_RATIO_MAX = 1.91;

/** The feed box's width / height for a photo of this size. */
export const feedRatio = (width: number, height: number) =>
  Math.min(Math.max(width / height, FEED_RATIO_MIN), FEED_RATIO_MAX);

/**
 * How many times the box's width a photo is drawn at when it covers a box of `boxRatio`
 * (`object-fit: cover`): 1 unless the photo is wider than the box, when its height fills the box.
 */
export const coverScale = (width: number, height: number, boxRatio: number) => Math.max(1, width / height / boxRatio);

/**
 * A CSS `sizes` list with each length multiplied by `scale`: the width the image itself is drawn
 * at when it is cropped to a box of the listed width, so the browser picks a candidate tall enough.
 */
export function scaledSizes(sizes: string, scale: number): string {
  if (scale <= 1) return sizes;
  const factor = Math.round(scale * 1000) / 1000;
  return sizes
    .split(',')
    .map((entry) => {
      const trimmed = entry.trim();
      const at = trimmed.lastIndexOf(' ');
      const [condition, length] = at < 0 ? ['', trimmed] : [trimmed.slice(0, at + 1), trimmed.slice(at + 1)];
      return `${condition}calc(${length} * ${factor})`;
    })
    .join(', ');
}
