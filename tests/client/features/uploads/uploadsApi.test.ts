import { http, HttpResponse } from 'msw';
import { uploadsApi } from '../../../../features/uploads/state/uploadsApi';
import { server } from '../../support/server';

describe('uploadsApi', () => {
  it('posts file and upload_preset as multipart through axios, reports its upload progress and reads secure_url', async () => {
    let body = '';
    server.use(
      http.post('/api/uploads', async ({ request }) => {
        body = await request.text();
        return HttpResponse.json(
          {
            secure_url: '/media/post/x.webp',
            public_id: 'x',
            width: 1,
            height: 1,
            format: 'webp',
            bytes: 1,
            thumbhash: null,
          },
          { status: 201 },
        );
      }),
    );
    const progress: number[] = [];
    const result = await uploadsApi.upload(new File(['x'.repeat(2048)], 'a.png', { type: 'image/png' }), 'post', (p) =>
      progress.push(p),
    );
    expect(result.secure_url).toBe('/media/post/x.webp');
    expect(body).toMatch(/name="upload_preset"\r\n\r\npost/);
    expect(body).toContain('name="file"; filename="a.png"');
    // axios's onUploadProgress events reach the caller as whole percents, rising to 100.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p, i) => Number.isInteger(p) && p >= (progress[i - 1] ?? 0) && p <= 100)).toBe(true);
    expect(progress.at(-1)).toBe(100);
  });
});
