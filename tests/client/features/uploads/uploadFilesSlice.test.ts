import { http, HttpResponse } from 'msw';
import { UPLOAD_MAX_BYTES } from '../../../../lib/limits';
import { TEXTS } from '../../../../lib/texts';
import { makeStore } from '../../../../store';
import { OFFLINE_MESSAGE } from '../../../../services/apiClient';
import {
  uploadImage,
  uploadProgressed,
  uploadReset,
  selectUploads,
} from '../../../../features/uploads/state/uploadFilesSlice';
import { buildUser } from '../../support/factories';
import { signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const file = (size: number, type = 'image/png') => {
  const f = new File(['x'], 'photo.png', { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

const signedIn = () => makeStore(signedInState(buildUser()));

describe('uploadFiles', () => {
  it('stores progress as a rounded whole percent and resets it to 0 at 100', () => {
    const store = makeStore();
    store.dispatch(uploadProgressed({ kind: 'post', percent: 41.6 }));
    expect(selectUploads(store.getState()).post.progress).toBe(42);
    store.dispatch(uploadProgressed({ kind: 'post', percent: 100 }));
    expect(selectUploads(store.getState()).post.progress).toBe(0);
  });

  it('holds the url of a finished upload and resets each kind separately', async () => {
    server.use(
      http.post('/api/uploads', async ({ request }) => {
        // jsdom's File does not survive undici's formData(), so read the multipart body as text.
        const body = await request.text();
        const preset = /name="upload_preset"\r\n\r\n(\w+)/.exec(body)?.[1];
        if (!body.includes('name="file"'))
          return HttpResponse.json({ message: 'No file', code: 'BadRequest' }, { status: 400 });
        return HttpResponse.json(
          {
            secure_url: `/media/${preset}.webp`,
            public_id: 'x',
            width: 10,
            height: 10,
            format: 'webp',
            bytes: 1,
            thumbhash: null,
          },
          { status: 201 },
        );
      }),
    );
    const store = signedIn();
    const pending = store.dispatch(uploadImage({ file: file(1000), kind: 'avatar' }));
    expect(selectUploads(store.getState()).avatar.loading).toBe(true);
    await pending;
    await store.dispatch(uploadImage({ file: file(1000), kind: 'banner' }));
    expect(selectUploads(store.getState()).avatar).toMatchObject({
      url: '/media/avatar.webp',
      loading: false,
      error: null,
    });
    expect(selectUploads(store.getState()).banner.url).toBe('/media/banner.webp');

    store.dispatch(uploadReset('avatar'));
    expect(selectUploads(store.getState()).avatar.url).toBeNull();
    expect(selectUploads(store.getState()).banner.url).toBe('/media/banner.webp');
  });

  it(`refuses a file of ${UPLOAD_MAX_BYTES} bytes with "File is too big" before uploading`, async () => {
    const store = signedIn();
    await store.dispatch(uploadImage({ file: file(UPLOAD_MAX_BYTES), kind: 'post' }));
    expect(selectUploads(store.getState()).post.error).toBe(TEXTS.fileTooBig);
    expect(store.getState().toasts.map((n) => n.message)).toEqual([TEXTS.fileTooBig]);
  });

  it('refuses files that are not JPEG or PNG', async () => {
    const store = signedIn();
    await store.dispatch(uploadImage({ file: file(10, 'image/gif'), kind: 'post' }));
    expect(selectUploads(store.getState()).post.error).toBe(TEXTS.allowedFormats);
  });

  it("shows the server's message when the upload fails", async () => {
    server.use(
      http.post('/api/uploads', () =>
        HttpResponse.json({ message: 'Allowed Formats: JPEG, PNG', code: 'UnsupportedMediaType' }, { status: 415 }),
      ),
    );
    const store = signedIn();
    await store.dispatch(uploadImage({ file: file(10), kind: 'post' }));
    expect(selectUploads(store.getState()).post).toMatchObject({ loading: false, error: 'Allowed Formats: JPEG, PNG' });
    expect(store.getState().toasts[0].message).toBe('Allowed Formats: JPEG, PNG');
  });

  it('says in words that no server answered, never axios\'s "Network Error" (issue 68, item 5)', async () => {
    server.use(http.post('/api/uploads', () => HttpResponse.error()));
    const store = signedIn();
    await store.dispatch(uploadImage({ file: file(10), kind: 'post' }));
    expect(selectUploads(store.getState()).post.error).toBe(OFFLINE_MESSAGE);
  });
});
