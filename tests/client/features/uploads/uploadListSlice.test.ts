import { http, HttpResponse } from 'msw';
import { makeStore } from '../../../../store';
import {
  PARALLEL_UPLOADS,
  photoMoved,
  photoRemoved,
  photoRetried,
  photosAdded,
  photosCleared,
  photosLoaded,
  selectPhotos,
  selectPhotosReady,
} from '../../../../features/uploads/state/uploadListSlice';
import { UPLOAD_MAX_BYTES } from '../../../../lib/limits';
import { TEXTS } from '../../../../lib/texts';
import { buildUser } from '../../support/factories';
import { signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const png = (name: string, size = 2048) => {
  const file = new File(['x'], name, { type: 'image/png' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

/** Each upload waits until the test answers it: which ones run at once is then certain, not timed. */
function heldUploads() {
  const waiting: { name: string; answer: (ok: boolean) => void; aborted: () => boolean }[] = [];
  server.use(
    http.post('/api/uploads', async ({ request }) => {
      const body = await request.text();
      const name = /filename="([^"]+)"/.exec(body)?.[1] ?? '?';
      const ok = await new Promise<boolean>((resolve) =>
        waiting.push({ name, answer: resolve, aborted: () => request.signal.aborted }),
      );
      if (!ok) return HttpResponse.json({ message: 'The upload broke', code: 'Broken' }, { status: 500 });
      return HttpResponse.json(
        {
          secure_url: `/media/post/${name}.webp`,
          public_id: name,
          width: 40,
          height: 30,
          format: 'webp',
          bytes: 1,
          thumbhash: null,
        },
        { status: 201 },
      );
    }),
  );
  const answer = async (name: string, ok = true) => {
    await vi.waitFor(() => expect(waiting.some((upload) => upload.name === name)).toBe(true));
    const index = waiting.findIndex((upload) => upload.name === name);
    const [upload] = waiting.splice(index, 1);
    upload.answer(ok);
  };
  return { waiting, answer };
}

const signedIn = () => makeStore(signedInState(buildUser()));
const statuses = (store: ReturnType<typeof makeStore>) =>
  selectPhotos(store.getState()).map((photo) => `${photo.name}:${photo.status}`);

afterEach(() => {
  // The module keeps the files of a list between tests otherwise.
  signedIn().dispatch(photosCleared());
});

describe('uploadList', () => {
  it(`uploads ${PARALLEL_UPLOADS} at a time; the next starts when one is done`, async () => {
    const uploads = heldUploads();
    const store = signedIn();
    await store.dispatch(photosAdded(['a', 'b', 'c', 'd', 'e'].map((name) => png(`${name}.png`))));
    await vi.waitFor(() => expect(uploads.waiting).toHaveLength(3));
    expect(statuses(store)).toEqual([
      'a.png:uploading',
      'b.png:uploading',
      'c.png:uploading',
      'd.png:queued',
      'e.png:queued',
    ]);
    await uploads.answer('b.png');
    await vi.waitFor(() => expect(statuses(store)).toContain('d.png:uploading'));
    expect(statuses(store)).toContain('b.png:done');
    expect(statuses(store)).toContain('e.png:queued');
    for (const name of ['a.png', 'c.png', 'd.png', 'e.png']) await uploads.answer(name);
    await vi.waitFor(() => expect(selectPhotosReady(store.getState())).toBe(true));
    expect(selectPhotos(store.getState()).map((photo) => photo.url)).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((name) => `/media/post/${name}.png.webp`),
    );
  });

  it('a failed upload keeps its error until Retry, and the others are untouched', async () => {
    const uploads = heldUploads();
    const store = signedIn();
    await store.dispatch(photosAdded([png('a.png'), png('b.png')]));
    await uploads.answer('a.png', false);
    await uploads.answer('b.png');
    await vi.waitFor(() => expect(statuses(store)).toEqual(['a.png:error', 'b.png:done']));
    expect(selectPhotos(store.getState())[0].error).toBe('The upload broke');
    expect(selectPhotosReady(store.getState())).toBe(false);

    store.dispatch(photoRetried(selectPhotos(store.getState())[0].key));
    expect(statuses(store)).toEqual(['a.png:uploading', 'b.png:done']);
    await uploads.answer('a.png');
    await vi.waitFor(() => expect(selectPhotosReady(store.getState())).toBe(true));
    expect(selectPhotos(store.getState())[1].url).toBe('/media/post/b.png.webp');
  });

  it('a photo removed while uploading is cancelled, and a waiting one takes its turn', async () => {
    const uploads = heldUploads();
    const store = signedIn();
    await store.dispatch(photosAdded(['a', 'b', 'c', 'd'].map((name) => png(`${name}.png`))));
    await vi.waitFor(() => expect(uploads.waiting).toHaveLength(3));
    const sent = uploads.waiting.find((upload) => upload.name === 'b.png')!;
    store.dispatch(photoRemoved(selectPhotos(store.getState())[1].key));
    expect(statuses(store)).toEqual(['a.png:uploading', 'c.png:uploading', 'd.png:uploading']);
    await vi.waitFor(() => expect(sent.aborted()).toBe(true));
    sent.answer(true);
    for (const name of ['a.png', 'c.png', 'd.png']) await uploads.answer(name);
    await vi.waitFor(() => expect(selectPhotosReady(store.getState())).toBe(true));
    expect(statuses(store)).toEqual(['a.png:done', 'c.png:done', 'd.png:done']);
  });

  it("reads the server's limit once, when photos are first added, and leaves out the ones past it", async () => {
    heldUploads();
    let reads = 0;
    server.use(
      http.get('/api/instance', () => {
        reads++;
        return HttpResponse.json({ name: 'Posts', contactEmail: 'a@example.com', maxPostImages: 3 });
      }),
    );
    const store = signedIn();
    expect(reads).toBe(0);
    const first = await store.dispatch(photosAdded([png('a.png'), png('b.png')]));
    expect(first.meta.requestStatus).toBe('fulfilled');
    const second = await store.dispatch(photosAdded([png('c.png'), png('d.png'), png('e.png')]));
    expect(second.payload).toBe('A post holds at most 3 photos: 2 photos were not added');
    expect(selectPhotos(store.getState()).map((photo) => photo.name)).toEqual(['a.png', 'b.png', 'c.png']);
    expect(reads).toBe(1);
  });

  it("refuses a file of the wrong type or size with the spec's message, adding the others", async () => {
    heldUploads();
    const store = signedIn();
    const wrong = new File(['x'], 'notes.txt', { type: 'text/plain' });
    const big = png('big.png', UPLOAD_MAX_BYTES);
    const one = await store.dispatch(photosAdded([big]));
    expect(one.payload).toBe(TEXTS.fileTooBig);
    const several = await store.dispatch(photosAdded([wrong, png('ok.png')]));
    expect(several.payload).toMatch(/^notes\.txt: /);
    expect(selectPhotos(store.getState()).map((photo) => photo.name)).toEqual(['ok.png']);
  });

  it('moves a photo to a place, and starts an edit from the post photos, all uploaded', () => {
    const store = signedIn();
    const crop = { x: 0.5, y: 0.5, fit: false };
    store.dispatch(
      photosLoaded(
        ['a', 'b', 'c'].map((name) => ({ image: `/media/post/${name}.webp`, imageInfo: null, alt: name, crop })),
      ),
    );
    expect(selectPhotosReady(store.getState())).toBe(true);
    const [a] = selectPhotos(store.getState());
    store.dispatch(photoMoved({ key: a.key, to: 2 }));
    expect(selectPhotos(store.getState()).map((photo) => photo.alt)).toEqual(['b', 'c', 'a']);
    store.dispatch(photoMoved({ key: a.key, to: 1 }));
    expect(selectPhotos(store.getState()).map((photo) => photo.alt)).toEqual(['b', 'a', 'c']);
  });
});
