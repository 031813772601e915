import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { LAST_PHOTO_TEXT, PhotoList } from '../../../../features/uploads/components/PhotoList';
import { photosCleared, photosLoaded, selectPhotos } from '../../../../features/uploads/state/uploadListSlice';
import { makeStore } from '../../../../store';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const crop = { x: 0.5, y: 0.5, fit: false };

function withPhotos(names: string[], keepOne = false) {
  const store = makeStore(signedInState(buildUser()));
  store.dispatch(photosCleared());
  store.dispatch(
    photosLoaded(names.map((name) => ({ image: `/media/post/${name}.webp`, imageInfo: null, alt: name, crop }))),
  );
  renderWithProviders(<PhotoList hintId="hint" keepOne={keepOne} />, { store });
  return store;
}

const order = (store: ReturnType<typeof makeStore>) => selectPhotos(store.getState()).map((photo) => photo.alt);
const live = () => document.querySelector('[aria-live="polite"]');

describe('PhotoList', () => {
  it('moves a photo with its buttons, keeps focus on it and says where it went', async () => {
    const user = userEvent.setup();
    const store = withPhotos(['a', 'b', 'c']);
    expect(screen.getByRole('button', { name: 'Move photo 1 left' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move photo 3 right' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Move photo 1 right' }));
    expect(order(store)).toEqual(['b', 'a', 'c']);
    // The moved photo (now the second) keeps the focus, on the same button.
    expect(screen.getByRole('button', { name: 'Move photo 2 right' })).toHaveFocus();
    expect(live()).toHaveTextContent('Photo moved to position 2 of 3');

    await user.keyboard('{Enter}');
    expect(order(store)).toEqual(['b', 'c', 'a']);
    // At the end its right button is disabled: the focus goes to its left one.
    expect(screen.getByRole('button', { name: 'Move photo 3 left' })).toHaveFocus();
    expect(live()).toHaveTextContent('Photo moved to position 3 of 3');
  });

  it('gives each photo its own alt text and removes one', async () => {
    const user = userEvent.setup();
    const store = withPhotos(['a', 'b']);
    const second = screen.getByLabelText('Alt text for photo 2');
    await user.clear(second);
    await user.type(second, 'A red door');
    expect(order(store)).toEqual(['a', 'A red door']);
    await user.click(screen.getByRole('button', { name: 'Remove photo 1' }));
    expect(order(store)).toEqual(['A red door']);
    expect(within(screen.getByRole('list', { name: 'Photos' })).getAllByRole('listitem')).toHaveLength(1);
  });

  it('keeps the last photo of a post being edited, saying why', async () => {
    const user = userEvent.setup();
    const store = withPhotos(['a'], true);
    await user.click(screen.getByRole('button', { name: 'Remove photo 1' }));
    expect(order(store)).toEqual(['a']);
    expect(screen.getByRole('alert')).toHaveTextContent(LAST_PHOTO_TEXT);
  });

  it('has one add control, which takes several files; a failed one shows its error and Retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    server.use(
      http.post('/api/uploads', async ({ request }) => {
        const name = /filename="([^"]+)"/.exec(await request.text())?.[1] ?? '?';
        if (name === 'b.png' && fail)
          return HttpResponse.json({ message: 'Network trouble', code: 'X' }, { status: 503 });
        return HttpResponse.json(
          {
            secure_url: `/media/post/${name}.webp`,
            public_id: name,
            width: 4,
            height: 3,
            format: 'webp',
            bytes: 1,
            thumbhash: null,
          },
          { status: 201 },
        );
      }),
    );
    const store = withPhotos([]);
    expect(screen.getAllByRole('button', { name: /add photos/i })).toHaveLength(1);
    const input = screen.getByTestId('post-dropzone').querySelector('input') as HTMLInputElement;
    expect(input).toHaveAttribute('multiple');
    await user.upload(input, [
      new File(['x'], 'a.png', { type: 'image/png' }),
      new File(['x'], 'b.png', { type: 'image/png' }),
    ]);
    await vi.waitFor(() =>
      expect(selectPhotos(store.getState()).map((photo) => photo.status)).toEqual(['done', 'error']),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Photo 2: Network trouble');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry photo 2' }));
    await vi.waitFor(() =>
      expect(selectPhotos(store.getState()).map((photo) => photo.url)).toEqual([
        '/media/post/a.png.webp',
        '/media/post/b.png.webp',
      ]),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
