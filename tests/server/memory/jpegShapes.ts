/**
 * JPEGs of any size, built by hand like the PNGs: every coefficient zero (an even grey), each
 * block one or two bits of entropy-coded data, so a 7071 × 7071 CMYK JPEG is a few hundred
 * kilobytes and is built in milliseconds (sharp takes minutes to encode one on a busy machine).
 */

export interface JpegShape {
  format: 'jpeg';
  width: number;
  height: number;
  /** CMYK (Adobe, no transform) is always 4:4:4:4: one full-size plane per ink. */
  space: 'srgb' | 'cmyk';
  chroma: '4:2:0' | '4:4:4';
  /** Progressive: the decoder holds every coefficient of the image until the last scan. */
  progressive: boolean;
}

function segment(marker: number, body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/** A Huffman table with one code, `0` of length 1, for `symbol`. */
const oneCodeTable = (tableClass: 0 | 1, symbol: number) =>
  Buffer.from([(tableClass << 4) | 0, 1, ...new Array<number>(15).fill(0), symbol]);

/**
 * A valid JPEG of `shape`. Baseline: each block is a zero DC difference and an end-of-block.
 * Progressive: one DC scan only (the AC coefficients are never sent, so they stay zero), which
 * libjpeg accepts and still decodes through the whole-image coefficient buffers.
 */
export function zeroJpeg({ width, height, space, chroma, progressive }: JpegShape): Buffer {
  // [component id, horizontal, vertical sampling]
  const components: [number, number, number][] =
    space === 'cmyk'
      ? [1, 2, 3, 4].map((id) => [id, 1, 1])
      : [
          [1, chroma === '4:2:0' ? 2 : 1, chroma === '4:2:0' ? 2 : 1],
          [2, 1, 1],
          [3, 1, 1],
        ];
  const hMax = Math.max(...components.map(([, h]) => h));
  const vMax = Math.max(...components.map(([, , v]) => v));
  const mcus = Math.ceil(width / (8 * hMax)) * Math.ceil(height / (8 * vMax));
  const blocksPerMcu = components.reduce((sum, [, h, v]) => sum + h * v, 0);
  const bits = mcus * blocksPerMcu * (progressive ? 1 : 2);
  // All-zero codes; the last byte is padded with one bits, as the standard asks.
  const scan = Buffer.alloc(Math.ceil(bits / 8));
  if (bits % 8) scan[scan.length - 1] = 0xff >> (bits % 8);

  const frame = Buffer.alloc(6 + 3 * components.length);
  frame.writeUInt8(8, 0);
  frame.writeUInt16BE(height, 1);
  frame.writeUInt16BE(width, 3);
  frame.writeUInt8(components.length, 5);
  components.forEach(([id, h, v], i) => frame.set([id, (h << 4) | v, 0], 6 + 3 * i));
  const scanHeader = Buffer.from([
    components.length,
    ...components.flatMap(([id]) => [id, 0x00]),
    0,
    progressive ? 0 : 63,
    0,
  ]);
  // Adobe APP14 with transform 0: four components are CMYK.
  const adobe = Buffer.from([...Buffer.from('Adobe'), 0, 100, 0, 0, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    ...(space === 'cmyk' ? [segment(0xee, adobe)] : []),
    segment(0xdb, Buffer.from([0, ...new Array<number>(64).fill(1)])),
    segment(progressive ? 0xc2 : 0xc0, frame),
    segment(0xc4, Buffer.concat([oneCodeTable(0, 0), ...(progressive ? [] : [oneCodeTable(1, 0)])])),
    segment(0xda, scanHeader),
    scan,
    Buffer.from([0xff, 0xd9]),
  ]);
}
