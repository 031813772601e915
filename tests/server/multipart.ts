/** Hand-built multipart bodies for upload tests, and a one-call image upload for other suites. */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import type { UploadPreset } from '../../lib/limits';
import type { UploadResult } from '../../lib/types';

export type FormPart =
  { name: string; value: string } | { name: string; filename: string; contentType: string; data: Buffer };

/** A multipart/form-data body with the parts in the given order. */
export function multipartBody(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----posts-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      'data' in part
        ? `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n`
        : `Content-Disposition: form-data; name="${part.name}"\r\n`;
    chunks.push(
      Buffer.from(`--${boundary}\r\n${head}\r\n`),
      'data' in part ? part.data : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POST /api/uploads with `file` (then `upload_preset` unless null) as a signed-in user (or anonymous). */
export function postUpload(
  app: FastifyInstance,
  user: { headers: { cookie: string } } | null,
  file: { data: Buffer; filename?: string; contentType?: string },
  preset: string | null = 'post',
): Promise<LightMyRequestResponse> {
  const parts: FormPart[] = [
    {
      name: 'file',
      filename: file.filename ?? 'image.jpg',
      contentType: file.contentType ?? 'image/jpeg',
      data: file.data,
    },
  ];
  if (preset !== null) parts.push({ name: 'upload_preset', value: preset });
  const body = multipartBody(parts);
  return app.inject({
    method: 'POST',
    url: '/api/uploads',
    payload: body.payload,
    headers: { ...body.headers, ...user?.headers },
  });
}

/** A small JPEG (a gradient, so encoders have something to do). */
export const makeJpeg = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#f80"/></svg>`,
        ),
      },
    ])
    .jpeg()
    .toBuffer();

/** Uploads a small JPEG; throws unless the server answers 201. */
export async function uploadImage(
  app: FastifyInstance,
  user: { headers: { cookie: string } },
  preset: UploadPreset = 'post',
): Promise<UploadResult> {
  const res = await postUpload(app, user, { data: await makeJpeg() }, preset);
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json() as UploadResult;
}
