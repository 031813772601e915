/**
 * Synthetic pictures made with sharp from SVG: a gradient, a few shapes and a caption. Used for
 * the seed's small shared image set and the demo's avatars, banners and post images.
 */
import sharp from 'sharp';
import type { Rng } from './random';

const PALETTES = [
  ['#ff9a8b', '#ff6a88', '#ff99ac'],
  ['#43cea2', '#185a9d', '#a8e063'],
  ['#f7971e', '#ffd200', '#f45c43'],
  ['#667eea', '#764ba2', '#f093fb'],
  ['#00c6ff', '#0072ff', '#e0f7fa'],
  ['#11998e', '#38ef7d', '#fffde4'],
  ['#fc466b', '#3f5efb', '#ffe29f'],
  ['#232526', '#414345', '#ff512f'],
  ['#ee9ca7', '#ffdde1', '#6a3093'],
  ['#0f2027', '#2c5364', '#f8b500'],
] as const;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export interface PictureOptions {
  width: number;
  height: number;
  caption?: string;
  /** 'shapes' scatters circles and rectangles; 'waves' draws layered hills; 'rings' concentric circles. */
  style?: 'shapes' | 'waves' | 'rings';
}

/** Returns an SVG document; render it with `renderPicture`. */
export function pictureSvg(rng: Rng, { width, height, caption, style = 'shapes' }: PictureOptions): string {
  const [c1, c2, c3] = rng.pick(PALETTES);
  const angle = rng.int(4);
  const [x2, y2] = [
    [1, 0],
    [0, 1],
    [1, 1],
    [0, 0.5],
  ][angle];
  const parts: string[] = [];
  const min = Math.min(width, height);
  if (style === 'shapes') {
    for (let i = 0; i < 7; i++) {
      const x = rng.int(width);
      const y = rng.int(height);
      const size = Math.round(min * (0.06 + rng.next() * 0.25));
      const opacity = (0.25 + rng.next() * 0.5).toFixed(2);
      parts.push(
        rng.next() < 0.6
          ? `<circle cx="${x}" cy="${y}" r="${size}" fill="${rng.pick([c3, '#ffffff', c1])}" fill-opacity="${opacity}"/>`
          : `<rect x="${x - size}" y="${y - size}" width="${size * 2}" height="${size * 1.4}" rx="${size / 5}" ` +
              `transform="rotate(${rng.int(90) - 45} ${x} ${y})" fill="${rng.pick([c3, '#ffffff', c2])}" fill-opacity="${opacity}"/>`,
      );
    }
  } else if (style === 'waves') {
    for (let layer = 0; layer < 4; layer++) {
      const base = height * (0.45 + layer * 0.14);
      const amp = height * (0.05 + rng.next() * 0.08);
      let d = `M0 ${base}`;
      for (let x = 0; x <= width; x += width / 6)
        d += ` Q${x + width / 12} ${base - amp * (rng.next() * 2 - 0.5)} ${x + width / 6} ${base}`;
      parts.push(
        `<path d="${d} L${width} ${height} L0 ${height} Z" fill="${layer % 2 ? c3 : '#ffffff'}" fill-opacity="${0.2 + layer * 0.15}"/>`,
      );
    }
  } else {
    const cx = width * (0.3 + rng.next() * 0.4);
    const cy = height * (0.3 + rng.next() * 0.4);
    for (let r = min * 0.6; r > min * 0.05; r -= min * 0.08) {
      parts.push(
        `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${rng.pick([c3, '#ffffff'])}" stroke-width="${min * 0.025}" stroke-opacity="0.6"/>`,
      );
    }
  }
  const text = caption
    ? `<text x="50%" y="${height - min * 0.08}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" ` +
      `font-size="${Math.round(min * 0.09)}" fill="#ffffff" fill-opacity="0.92">${escapeXml(caption)}</text>`
    : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="${x2}" y2="${y2}"><stop offset="0" stop-color="${c1}"/>` +
    `<stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>${parts.join('')}${text}</svg>`
  );
}

export function renderPicture(svg: string, format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
  const image = sharp(Buffer.from(svg));
  return (format === 'png' ? image.png() : image.jpeg({ quality: 90 })).toBuffer();
}

export const makePicture = (rng: Rng, options: PictureOptions, format: 'jpeg' | 'png' = 'jpeg') =>
  renderPicture(pictureSvg(rng, options), format);
