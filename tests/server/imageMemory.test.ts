/**
 * No upload of any shape raises the process's peak RSS by more than 200 MB: each case runs in a
 * fresh process (tests/server/memory/peakRss.ts), which reads its own VmHWM.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { PeakRssRequest, PeakRssResult } from './memory/peakRss';
import type { JpegShape } from './memory/jpegShapes';
import type { PngShape } from './memory/pngShapes';

const script = path.join(import.meta.dirname, 'memory', 'peakRss.ts');
const BUDGET_MB = 200;

function measure(request: PeakRssRequest): PeakRssResult {
  const out = execFileSync(process.execPath, ['--import', 'tsx', script, JSON.stringify(request)], {
    encoding: 'utf8',
    // glibc's settings from scripts/start.sh, which runs the server.
    env: { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
  });
  return JSON.parse(out.trim().split('\n').pop()!) as PeakRssResult;
}

const png = (width: number, height: number, depth: 8 | 16, colorType: PngShape['colorType']): PngShape => ({
  width,
  height,
  depth,
  colorType,
});
const adam7 = (...shape: Parameters<typeof png>): PngShape => ({ ...png(...shape), interlaced: true });
const progressive = (
  width: number,
  height: number,
  space: 'srgb' | 'cmyk',
  chroma: JpegShape['chroma'],
): JpegShape => ({
  format: 'jpeg',
  width,
  height,
  space,
  chroma,
  progressive: true,
});
const times = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);

/** Files only other servers send, made here: their encoders would set the measured process's peak. */
const made = mkdtempSync(path.join(tmpdir(), 'posts-image-memory-'));
const solid = (width: number, height: number, channels: 3 | 4) =>
  sharp({ create: { width, height, channels, background: { r: 51, g: 170, b: 136, alpha: 0.5 } } });
const files = {
  avif7000: path.join(import.meta.dirname, '../fixtures/remote/7000x7000.avif'),
  avif10bit: path.join(made, '3000x2000-10bit-rgba.avif'),
  avif8bit: path.join(made, '3840x2160-rgba.avif'),
  gif: path.join(made, '5000x4000.gif'),
};
beforeAll(async () => {
  writeFileSync(files.avif10bit, await solid(3_000, 2_000, 4).avif({ effort: 0, bitdepth: 10 }).toBuffer());
  writeFileSync(files.avif8bit, await solid(3_840, 2_160, 4).avif({ effort: 0 }).toBuffer());
  writeFileSync(files.gif, await solid(5_000, 4_000, 3).gif().toBuffer());
});
afterAll(() => rmSync(made, { recursive: true, force: true }));
const remote = (preset: PeakRssRequest['preset'], paths: string[]): PeakRssRequest => ({
  preset,
  source: 'remote',
  shapes: paths.map((file) => ({ file })),
});

// The probe's shapes are refused from their header; the widest and thinnest accepted ones are processed.
const cases: { name: string; request: PeakRssRequest; outcome: string }[] = [
  {
    name: '10,000,000 × 5, 16-bit RGBA (389 KB)',
    request: { preset: 'post', shapes: [png(10_000_000, 5, 16, 6)] },
    outcome: 'ImageTooLarge',
  },
  {
    name: '10,000,000 × 5, 8-bit RGB',
    request: { preset: 'post', shapes: [png(10_000_000, 5, 8, 2)] },
    outcome: 'ImageTooLarge',
  },
  {
    name: 'eight 100,000 × 500 avatars at once',
    request: { preset: 'avatar', shapes: times(8, png(100_000, 500, 8, 2)) },
    outcome: 'ImageTooLarge',
  },
  {
    name: 'one pixel too wide: 16,001 RGB, 12,001 RGBA, 6,001 16-bit RGBA',
    request: {
      preset: 'post',
      shapes: [png(16_001, 1_000, 8, 2), png(12_001, 1_000, 8, 6), png(6_001, 1_000, 16, 6)],
    },
    outcome: 'ImageTooLarge',
  },
  {
    // Each raised the peak by 230–390 MB before interlaced and progressive images had their own caps.
    name: 'interlaced PNGs and progressive JPEGs of 36–50 MP (issue 36)',
    request: {
      preset: 'post',
      shapes: [
        progressive(7_071, 7_071, 'cmyk', '4:4:4'),
        progressive(7_071, 7_071, 'srgb', '4:4:4'),
        adam7(6_000, 6_000, 16, 6),
        adam7(8_000, 6_250, 16, 2),
        adam7(12_000, 4_166, 16, 4),
        adam7(7_071, 7_071, 8, 6),
      ],
    },
    outcome: 'ImageTooLarge',
  },
  {
    name: 'eight 3,535 × 3,535 progressive CMYK JPEGs at once (12.5 MP, the most accepted)',
    request: { preset: 'post', shapes: times(8, progressive(3_535, 3_535, 'cmyk', '4:4:4')) },
    outcome: 'ok 1080x1080',
  },
  {
    name: 'progressive JPEGs at their caps at once: 4:4:4 16.6 MP, 4:2:0 33.3 MP',
    request: {
      preset: 'post',
      shapes: [progressive(4_082, 4_082, 'srgb', '4:4:4'), progressive(5_773, 5_773, 'srgb', '4:2:0')],
    },
    outcome: 'ok 1080x1080',
  },
  {
    name: 'four 6,000 × 1,333 16-bit RGBA interlaced banners at once (8 MP, the widest accepted)',
    request: { preset: 'banner', shapes: times(4, adam7(6_000, 1_333, 16, 6)) },
    outcome: 'ok 1500x500',
  },
  {
    name: 'eight 8,000 × 2,000 interlaced banners at once, 8-bit RGBA and 16-bit grey + alpha (16 MP)',
    request: {
      preset: 'banner',
      shapes: [...times(4, adam7(8_000, 2_000, 8, 6)), ...times(4, adam7(8_000, 2_000, 16, 4))],
    },
    outcome: 'ok 1500x500',
  },
  {
    name: 'eight 12,000 × 4,166 RGBA banners at once (50 MP, the widest accepted with alpha)',
    request: { preset: 'banner', shapes: times(8, png(12_000, 4_166, 8, 6)) },
    outcome: 'ok 1500x500',
  },
  {
    name: 'four 6,000 × 8,333 16-bit RGBA posts at once',
    request: { preset: 'post', shapes: times(4, png(6_000, 8_333, 16, 6)) },
    outcome: 'ok 1080x1500',
  },
  {
    // Issue 68: decoded, this 1 KB file raised the peak by 860 MB.
    name: 'eight 1 KB AVIFs of 7,000 × 7,000 from elsewhere at once',
    request: remote('avatar', times(8, files.avif7000)),
    outcome: 'ImageTooLarge',
  },
  {
    name: 'AVIFs from elsewhere at their caps at once: 3,840 × 2,160 RGBA, 3,000 × 2,000 10-bit RGBA',
    request: remote('post', [...times(2, files.avif8bit), ...times(2, files.avif10bit)]),
    outcome: 'ok 1080x',
  },
  {
    name: 'four 5,000 × 4,000 GIFs from elsewhere at once (20 MP, the most accepted)',
    request: remote('banner', times(4, files.gif)),
    outcome: 'ok 1500x500',
  },
  {
    name: 'eight 16,000 × 800 RGB avatars at once (20:1, the thinnest accepted)',
    request: { preset: 'avatar', shapes: times(8, png(16_000, 800, 8, 2)) },
    outcome: 'ok 400x400',
  },
];

describe('upload memory', () => {
  for (const { name, request, outcome } of cases) {
    it(`${name}: raises peak RSS by less than ${BUDGET_MB} MB`, { timeout: 120_000 }, () => {
      const result = measure(request);
      expect(result.outcomes).toEqual(request.shapes.map(() => expect.stringContaining(outcome)));
      expect(result.raisedMb).toBeLessThan(BUDGET_MB);
    });
  }
});
