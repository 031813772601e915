/**
 * PNGs of any size, built by hand: a header and zlib-deflated rows of zeros, so a 10,000,000 × 5
 * 16-bit RGBA image is a few hundred kilobytes. What the memory test and bench upload.
 */
import { createDeflate, crc32 } from 'node:zlib';

export interface PngShape {
  width: number;
  height: number;
  /** 8 or 16 bits per sample. */
  depth: 8 | 16;
  /** 0 = grey, 2 = RGB, 4 = grey + alpha, 6 = RGBA. */
  colorType: 0 | 2 | 4 | 6;
  /** Adam7: the decoder holds the whole image, not a few rows. */
  interlaced?: boolean;
}

const SAMPLES = { 0: 1, 2: 3, 4: 2, 6: 4 } as const;

/** Adam7's seven passes: first column and row, then the step between them. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Bytes of the filtered image data: each (sub)image's rows, each with its filter byte. */
function dataBytes({ width, height, depth, colorType, interlaced }: PngShape): number {
  const rowBytes = (w: number) => 1 + w * SAMPLES[colorType] * (depth / 8);
  if (!interlaced) return rowBytes(width) * height;
  let total = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    // An empty pass has no rows at all, not even filter bytes.
    if (w > 0 && h > 0) total += rowBytes(w) * h;
  }
  return total;
}

/**
 * `length` zero bytes, deflated a megabyte at a time: the whole buffer would raise the peak RSS of
 * the process that then measures the upload by hundreds of MB.
 */
async function deflatedZeros(length: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (piece: Buffer) => out.push(piece));
  const piece = Buffer.alloc(1 << 20);
  for (let left = length; left > 0; left -= piece.length) {
    if (!deflate.write(left < piece.length ? piece.subarray(0, left) : piece))
      await new Promise((resolve) => deflate.once('drain', resolve));
  }
  // 'end' (the last output read), not end()'s callback (the last input taken).
  await new Promise((resolve, reject) => deflate.on('error', reject).on('end', resolve).end());
  return Buffer.concat(out);
}

/** A valid PNG of `shape` whose pixels are all zero (filter byte 0 on every row). */
export async function zeroPng(shape: PngShape): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(shape.width, 0);
  ihdr.writeUInt32BE(shape.height, 4);
  ihdr.writeUInt8(shape.depth, 8);
  ihdr.writeUInt8(shape.colorType, 9);
  ihdr.writeUInt8(shape.interlaced ? 1 : 0, 12);
  const idat = await deflatedZeros(dataBytes(shape));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
