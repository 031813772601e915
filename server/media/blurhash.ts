/**
 * BlurHash (blurha.sh), the placeholder Mastodon clients and ActivityPub servers read, derived from
 * the ThumbHash each image already keeps: the thumbhash decodes to a ≤32×32 picture, which is
 * encoded as a blurhash. No column and no migration, and images stored before this have one too.
 * The encoder follows the reference (woltapp/blurhash, its C version's absolute maximum).
 */
import { thumbHashToRGBA } from 'thumbhash';
import { setBounded } from '../cache/bounded';

const BASE83 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~';

function base83(value: number, length: number): string {
  let out = '';
  for (let i = 1; i <= length; i++) out += BASE83[Math.floor(value / 83 ** (length - i)) % 83];
  return out;
}

const toLinear = (byte: number) => {
  const v = byte / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};

const toSrgb = (linear: number) => {
  const v = Math.max(0, Math.min(1, linear));
  return v <= 0.0031308 ? Math.trunc(v * 12.92 * 255 + 0.5) : Math.trunc((1.055 * v ** (1 / 2.4) - 0.055) * 255 + 0.5);
};

const signPow = (value: number, exp: number) => Math.sign(value) * Math.abs(value) ** exp;

/**
 * RGBA pixels (row after row, alpha ignored) → a blurhash of `componentsX` × `componentsY`
 * components (1 to 9 each).
 */
export function encodeBlurhash(
  rgba: ArrayLike<number>,
  width: number,
  height: number,
  componentsX: number,
  componentsY: number,
): string {
  if (componentsX < 1 || componentsX > 9 || componentsY < 1 || componentsY > 9)
    throw new RangeError('BlurHash components must be 1 to 9');
  if (rgba.length !== width * height * 4) throw new RangeError('Pixels do not match the size');
  const linear = Float64Array.from({ length: rgba.length }, (_, i) => (i % 4 === 3 ? 0 : toLinear(rgba[i])));
  const factors: [number, number, number][] = [];
  for (let cy = 0; cy < componentsY; cy++)
    for (let cx = 0; cx < componentsX; cx++) {
      const normalisation = cx === 0 && cy === 0 ? 1 : 2;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = 0; y < height; y++) {
        const cosY = Math.cos((Math.PI * cy * y) / height);
        for (let x = 0; x < width; x++) {
          const basis = normalisation * Math.cos((Math.PI * cx * x) / width) * cosY;
          const at = (y * width + x) * 4;
          r += basis * linear[at];
          g += basis * linear[at + 1];
          b += basis * linear[at + 2];
        }
      }
      const scale = 1 / (width * height);
      factors.push([r * scale, g * scale, b * scale]);
    }

  const [dc, ...ac] = factors;
  let hash = base83(componentsX - 1 + (componentsY - 1) * 9, 1);
  let maximum = 1;
  if (ac.length > 0) {
    const actual = Math.max(...ac.flatMap((factor) => factor.map(Math.abs)));
    const quantised = Math.max(0, Math.min(82, Math.floor(actual * 166 - 0.5)));
    maximum = (quantised + 1) / 166;
    hash += base83(quantised, 1);
  } else hash += base83(0, 1);
  hash += base83((toSrgb(dc[0]) << 16) + (toSrgb(dc[1]) << 8) + toSrgb(dc[2]), 4);
  for (const factor of ac) {
    const [r, g, b] = factor.map((v) => Math.max(0, Math.min(18, Math.floor(signPow(v / maximum, 0.5) * 9 + 9.5))));
    hash += base83(r * 19 * 19 + g * 19 + b, 2);
  }
  return hash;
}

/** Blurhashes already derived, by thumbhash: the same thumbhash always gives the same blurhash. */
const derived = new Map<string, string | null>();
const DERIVED_MAX = 10_000;

/**
 * The blurhash of the image whose thumbhash (base64) this is, or null without one (or an unreadable
 * one). 4×3 components (3×4 upright), as Mastodon's clients expect; kept in memory once derived.
 */
export function blurhashOfThumbhash(thumbhash: string | null | undefined): string | null {
  if (!thumbhash) return null;
  const known = derived.get(thumbhash);
  if (known !== undefined) return known;
  let hash: string | null = null;
  try {
    const { w, h, rgba } = thumbHashToRGBA(Buffer.from(thumbhash, 'base64'));
    hash = encodeBlurhash(rgba, w, h, w >= h ? 4 : 3, w >= h ? 3 : 4);
  } catch {
    hash = null;
  }
  setBounded(derived, thumbhash, hash, DERIVED_MAX);
  return hash;
}
