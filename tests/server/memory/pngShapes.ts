/**
 * PNGs of any size, built by hand: a header and zlib-deflated rows of zeros, so a 10,000,000 × 5
 * 16-bit RGBA image is a few hundred kilobytes. What the memory test and bench upload.
 */
import { crc32, deflateSync } from 'node:zlib';

export interface PngShape {
  width: number;
  height: number;
  /** 8 or 16 bits per sample. */
  depth: 8 | 16;
  /** 2 = RGB, 6 = RGBA. */
  colorType: 2 | 6;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG of `shape` whose pixels are all zero (filter byte 0 on every row). */
export function zeroPng({ width, height, depth, colorType }: PngShape): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(depth, 8);
  ihdr.writeUInt8(colorType, 9);
  const rowBytes = 1 + width * (colorType === 6 ? 4 : 3) * (depth / 8);
  // A zero-filled buffer is not touched until deflate reads it: a few hundred MB cost little RSS.
  const raw = Buffer.alloc(rowBytes * height);
  const idat = deflateSync(raw, { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
