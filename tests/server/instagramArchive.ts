/**
 * Instagram archives built by the tests (issue 76), in the layout Instagram documents for its JSON
 * download: `your_instagram_activity/media/posts_1.json` listing each post's media (`uri`,
 * `creation_timestamp`, `title`), the photos under `media/posts/<yyyymm>/`. Captions are written
 * as Instagram writes them: each UTF-8 byte as a `\u00XX` escape.
 */
import sharp from 'sharp';
import { ZipFile } from 'yazl';

export interface ArchivePost {
  /** Seconds since 1970. */
  timestamp: number;
  caption: string;
  /** Names of its photos under `media/posts/`; a name in `missing` is listed but not in the zip. */
  photos: string[];
}

/** A small JPEG of one colour (each photo of a test its own). */
export async function photo(seed: number, width = 48, height = 36): Promise<Buffer> {
  const channel = (n: number) => (seed * n) % 256;
  return sharp({
    create: { width, height, channels: 3, background: { r: channel(37), g: channel(91), b: channel(53) } },
  })
    .jpeg()
    .toBuffer();
}

/** JSON with every non-ASCII character as its UTF-8 bytes, each `\u00XX`: Instagram's mojibake. */
export function instagramJson(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/[\u0080-\u{10ffff}]/gu, (char) =>
    [...Buffer.from(char, 'utf8')].map((byte) => `\\u00${byte.toString(16).padStart(2, '0')}`).join(''),
  );
}

/** The posts list as Instagram writes it: one-photo posts keep their caption on the media. */
export function postsJson(posts: ArchivePost[]): unknown[] {
  return posts.map((post) => {
    const media = post.photos.map((name) => ({
      uri: `media/posts/${name}`,
      creation_timestamp: post.timestamp,
      title: post.photos.length === 1 ? post.caption : '',
    }));
    return post.photos.length === 1 ? { media } : { media, title: post.caption, creation_timestamp: post.timestamp };
  });
}

export async function zipOf(files: { name: string; data: Buffer; compress?: boolean }[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const file of files) zip.addBuffer(file.data, file.name, { compress: file.compress ?? false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An archive of these posts; the photos named in `missing` are left out of the zip. */
export async function instagramArchive(
  posts: ArchivePost[],
  options: { missing?: string[]; listPath?: string } = {},
): Promise<Buffer> {
  const missing = new Set(options.missing ?? []);
  const files: { name: string; data: Buffer; compress?: boolean }[] = [
    {
      name: options.listPath ?? 'your_instagram_activity/media/posts_1.json',
      data: Buffer.from(instagramJson(postsJson(posts))),
      compress: true,
    },
  ];
  let seed = 1;
  for (const post of posts)
    for (const name of post.photos) {
      seed++;
      if (!missing.has(name)) files.push({ name: `media/posts/${name}`, data: await photo(seed) });
    }
  return zipOf(files);
}
