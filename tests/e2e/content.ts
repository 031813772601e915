/**
 * Content made through the API inside a browser context (its cookies are the context's), or through
 * a request context of its own (`{ request }`: another server's person in the federation journey).
 */
import type { APIRequestContext, Page } from 'playwright-core';
import sharp from 'sharp';
import type { Post, UploadResult } from '../../lib/types';
import type { Account } from './users';

/** What the helpers use of a page: its request context. */
type Requester = { request: APIRequestContext };

/** The feed card (an `article`) of the post whose text holds `text`. */
export const cardOf = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text });

/** Signs the page's context in without the form (for journeys about something else). */
export async function signInViaApi(page: Requester, account: Account): Promise<void> {
  const res = await page.request.post('/api/auth/login', {
    data: { email: account.email, password: account.password },
  });
  if (!res.ok()) throw new Error(`login failed: ${res.status()} ${await res.text()}`);
}

/** A real image: a diagonal gradient with a circle, as JPEG or PNG. */
export async function makeImage(format: 'jpeg' | 'png', width = 900, height = 600, hue = 200): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,60%)"/><stop offset="1" stop-color="hsl(${(hue + 80) % 360},70%,35%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.7}" cy="${height * 0.4}" r="${Math.min(width, height) / 5}" fill="rgba(255,255,255,0.6)"/>
  </svg>`;
  const image = sharp(Buffer.from(svg));
  return format === 'jpeg' ? image.jpeg({ quality: 85 }).toBuffer() : image.png().toBuffer();
}

export async function uploadViaApi(
  page: Requester,
  preset: 'post' | 'avatar' | 'banner',
  hue = 200,
): Promise<UploadResult> {
  const res = await page.request.post('/api/uploads', {
    multipart: {
      upload_preset: preset,
      file: {
        name: `${preset}.jpg`,
        mimeType: 'image/jpeg',
        buffer: await makeImage('jpeg', preset === 'banner' ? 1500 : 900, preset === 'banner' ? 500 : 600, hue),
      },
    },
  });
  if (res.status() !== 201) throw new Error(`upload failed: ${res.status()} ${await res.text()}`);
  return res.json();
}

export async function createPostViaApi(
  page: Requester,
  post: { message: string; tags: string[]; hue?: number },
): Promise<Post> {
  const upload = await uploadViaApi(page, 'post', post.hue);
  const res = await page.request.post('/api/posts/create', {
    data: { message: post.message, tags: post.tags, image: upload.secure_url },
  });
  if (res.status() !== 201) throw new Error(`create post failed: ${res.status()} ${await res.text()}`);
  return res.json();
}

/** Drops a file on the dropzone the way a browser does: a DataTransfer with a File in a drop event. */
export async function dropFile(page: Page, testId: string, file: { name: string; type: string; bytes: Buffer }) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, type, base64 }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type }));
      return transfer;
    },
    { name: file.name, type: file.type, base64: file.bytes.toString('base64') },
  );
  await page.getByTestId(testId).dispatchEvent('drop', { dataTransfer });
}

/** One photo of an album made by `createAlbumViaApi`: its size, colour and alt text. */
export interface AlbumPhoto {
  width: number;
  height: number;
  hue?: number;
  alt?: string;
}

/** An album (issue 71): each photo uploaded at its own size, then one post of them all, in order. */
export async function createAlbumViaApi(
  page: Requester,
  album: { message: string; tags: string[]; photos: AlbumPhoto[]; sensitive?: boolean },
): Promise<Post> {
  const images: { image: string; alt?: string }[] = [];
  for (const [i, photo] of album.photos.entries()) {
    const res = await page.request.post('/api/uploads', {
      multipart: {
        upload_preset: 'post',
        file: {
          name: `album-${i + 1}.jpg`,
          mimeType: 'image/jpeg',
          buffer: await makeImage('jpeg', photo.width, photo.height, photo.hue ?? (i * 70) % 360),
        },
      },
    });
    if (res.status() !== 201) throw new Error(`upload failed: ${res.status()} ${await res.text()}`);
    const upload: UploadResult = await res.json();
    images.push({ image: upload.secure_url, ...(photo.alt ? { alt: photo.alt } : {}) });
  }
  const res = await page.request.post('/api/posts/create', {
    data: { message: album.message, tags: album.tags, images, sensitive: album.sensitive ?? false },
  });
  if (res.status() !== 201) throw new Error(`create album failed: ${res.status()} ${await res.text()}`);
  return res.json();
}
