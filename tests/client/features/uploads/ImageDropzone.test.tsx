import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ImageDropzone } from '../../../../features/uploads/components/ImageDropzone';
import { UPLOAD_MAX_BYTES } from '../../../../lib/limits';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';
import { selectUploads } from '../../../../features/uploads/state/uploadFilesSlice';

function png(size: number) {
  const file = new File(['x'], 'photo.png', { type: 'image/png' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

const renderZone = () =>
  renderWithProviders(<ImageDropzone kind="post" label="Post image" preview={null} hintId="hint" />, {
    preloadedState: signedInState(buildUser()),
  });

const fileInput = () => screen.getByTestId('post-dropzone').querySelector('input[type=file]') as HTMLInputElement;

describe('ImageDropzone', () => {
  it('offers a named button described by the hint', () => {
    renderZone();
    expect(screen.getByRole('button', { name: 'Choose post image' })).toHaveAccessibleDescription(
      'Allowed Formats: JPEG, PNG. Max size: 4mb.',
    );
  });

  it('says "Choose a photo" where nothing is dragged (touch, narrow), "Drag an image here" elsewhere (issue 68, item 19)', () => {
    renderZone();
    const zone = screen.getByTestId('post-dropzone');
    expect(zone.querySelector('.pointer')).toHaveTextContent('Drag an image here or choose one');
    expect(zone.querySelector('.touch')).toHaveTextContent('Choose a photo');
  });

  it('refuses a file of 4194304 bytes with "File is too big" without uploading', async () => {
    let uploads = 0;
    server.use(
      http.post('/api/uploads', () => {
        uploads += 1;
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    const { store } = renderZone();
    await userEvent.upload(fileInput(), png(UPLOAD_MAX_BYTES));
    await vi.waitFor(() => expect(store.getState().toasts.map((n) => n.message)).toEqual(['File is too big']));
    expect(uploads).toBe(0);
    // And beside the button, after the toast has gone, until the next pick (issue 68, item 5).
    expect(screen.getByRole('alert')).toHaveTextContent('File is too big');
    expect(screen.getByRole('button', { name: 'Choose post image' })).toHaveAccessibleDescription(
      'File is too big Allowed Formats: JPEG, PNG. Max size: 4mb.',
    );
    expect(fileInput()).toHaveAttribute('aria-invalid', 'true');
  });

  it('says an upload that reached no server in words, beside the button (issue 68, item 5)', async () => {
    server.use(http.post('/api/uploads', () => HttpResponse.error()));
    renderZone();
    await userEvent.upload(fileInput(), png(2048));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You appear to be offline. Check your connection and try again.',
    );
    expect(screen.queryByText('Network Error')).toBeNull();
  });

  it('uploads an accepted file with the post preset and keeps its url', async () => {
    server.use(
      http.post('/api/uploads', async ({ request }) => {
        const body = await request.text();
        expect(body).toMatch(/name="upload_preset"\r\n\r\npost/);
        return HttpResponse.json(
          {
            secure_url: '/media/new.webp',
            public_id: 'n',
            width: 4,
            height: 3,
            format: 'webp',
            bytes: 10,
            thumbhash: null,
          },
          { status: 201 },
        );
      }),
    );
    const { store } = renderZone();
    await userEvent.upload(fileInput(), png(2048));
    await vi.waitFor(() => expect(selectUploads(store.getState()).post.url).toBe('/media/new.webp'));
  });
});
