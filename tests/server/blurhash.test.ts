/**
 * The BlurHash encoder (server/media/blurhash.ts) against values worked out by the reference
 * algorithm's rules, and read back with its decoding rules: the size flag, the quantised maximum,
 * the DC colour (four base-83 digits of the sRGB colour), two digits per AC component.
 */
import { rgbaToThumbHash } from 'thumbhash';
import { blurhashOfThumbhash, encodeBlurhash } from '../../server/media/blurhash';

const BASE83 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~';
const decode83 = (text: string) => [...text].reduce((value, c) => value * 83 + BASE83.indexOf(c), 0);

/** What a decoder reads of a hash (the reference decoder's first steps). */
function read(hash: string) {
  const flag = decode83(hash[0]);
  const [x, y] = [(flag % 9) + 1, Math.floor(flag / 9) + 1];
  expect(hash).toHaveLength(4 + 2 * x * y);
  const maximum = (decode83(hash[1]) + 1) / 166;
  const dc = decode83(hash.slice(2, 6));
  const ac = Array.from({ length: x * y - 1 }, (_, i) => {
    const value = decode83(hash.slice(6 + i * 2, 8 + i * 2));
    return [Math.floor(value / 361), Math.floor(value / 19) % 19, value % 19].map(
      (q) => Math.sign(q - 9) * ((q - 9) / 9) ** 2 * maximum,
    );
  });
  return { x, y, dc: [dc >> 16, (dc >> 8) & 255, dc & 255], ac };
}

const uniform = (width: number, height: number, [r, g, b]: number[]) =>
  Uint8Array.from({ length: width * height * 4 }, (_, i) => [r, g, b, 255][i % 4]);

describe('encodeBlurhash', () => {
  it('a black image: the known all-zero hash (every AC component "fQ", the middle of 19×19×19)', () => {
    expect(encodeBlurhash(uniform(32, 24, [0, 0, 0]), 32, 24, 4, 3)).toBe('L00000fQfQfQfQfQfQfQfQfQfQfQ');
  });

  it('one component: the average colour, white being 0xFFFFFF in base 83 ("TSUA")', () => {
    expect(encodeBlurhash(uniform(4, 4, [255, 255, 255]), 4, 4, 1, 1)).toBe('00TSUA');
    // Black and white halves average to linear 0.5, sRGB 188 (0xBCBCBC = "Lqe9").
    const halves = Uint8Array.from([0, 0, 0, 255, 255, 255, 255, 255]);
    expect(encodeBlurhash(halves, 2, 1, 1, 1)).toBe('00Lqe9');
  });

  it('a uniform colour decodes to that colour exactly, with 4×3 components', () => {
    const hash = encodeBlurhash(uniform(20, 10, [200, 100, 50]), 20, 10, 4, 3);
    expect(hash[0]).toBe('L');
    expect(read(hash)).toMatchObject({ x: 4, y: 3, dc: [200, 100, 50] });
  });

  it('dark on the left, light on the right: the first horizontal component is negative; mirrored, positive', () => {
    const width = 16;
    const height = 8;
    const halves = (left: number, right: number) =>
      Uint8Array.from({ length: width * height * 4 }, (_, i) =>
        i % 4 === 3 ? 255 : Math.floor(i / 4) % width < width / 2 ? left : right,
      );
    // ac[0] is component (1, 0): cos(πx/w) is positive on the left, negative on the right.
    for (const channel of read(encodeBlurhash(halves(20, 235), width, height, 4, 3)).ac[0])
      expect(channel).toBeLessThan(-0.1);
    for (const channel of read(encodeBlurhash(halves(235, 20), width, height, 4, 3)).ac[0])
      expect(channel).toBeGreaterThan(0.1);
  });

  it('refuses components out of 1..9 and pixels of the wrong size', () => {
    expect(() => encodeBlurhash(uniform(2, 2, [0, 0, 0]), 2, 2, 0, 3)).toThrow(RangeError);
    expect(() => encodeBlurhash(uniform(2, 2, [0, 0, 0]), 3, 2, 4, 3)).toThrow(RangeError);
  });
});

describe('blurhashOfThumbhash', () => {
  const thumbhashOf = (width: number, height: number, colour: number[]) =>
    Buffer.from(rgbaToThumbHash(width, height, uniform(width, height, colour))).toString('base64');

  it('derives 4×3 (3×4 upright) whose colour is the image’s, the same each time', () => {
    const wide = blurhashOfThumbhash(thumbhashOf(60, 40, [30, 120, 220]))!;
    const { x, y, dc } = read(wide);
    expect([x, y]).toEqual([4, 3]);
    // ThumbHash keeps colours approximately.
    dc.forEach((channel, i) => expect(Math.abs(channel - [30, 120, 220][i])).toBeLessThan(12));
    expect(blurhashOfThumbhash(thumbhashOf(60, 40, [30, 120, 220]))).toBe(wide);
    expect(read(blurhashOfThumbhash(thumbhashOf(40, 60, [30, 120, 220]))!)).toMatchObject({ x: 3, y: 4 });
  });

  it('is null without a thumbhash', () => {
    expect(blurhashOfThumbhash(null)).toBeNull();
    expect(blurhashOfThumbhash('')).toBeNull();
  });
});
