import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PostEditor from '../../../../../features/posts/components/PostEditor';
import { editorOpened } from '../../../../../features/posts/state/editor';
import { makeStore } from '../../../../../store';
import { photosLoaded } from '../../../../../features/uploads/state/uploadListSlice';
import { buildUser } from '../../../support/factories';
import { renderWithProviders, signedInState } from '../../../support/renderWithProviders';
import { selectUploads } from '../../../../../features/uploads/state/uploadFilesSlice';
import { postsIn } from '../../../../../features/posts/state/postsIn';

const me = buildUser({ username: 'me' });

function openEditor(uploaded: string | null = null) {
  const base = makeStore().getState();
  const store = makeStore({
    ...signedInState(me),
    uploadFiles: { ...selectUploads(base), post: { ...selectUploads(base).post, url: uploaded } },
  });
  store.dispatch(editorOpened(null));
  renderWithProviders(<PostEditor />, { store });
  return store;
}

const editor = () => screen.getByRole('dialog', { name: 'Create post' });
const backdrop = () => editor().parentElement as HTMLElement;

describe('PostEditor', () => {
  it('closes at once on Escape when nothing was written', async () => {
    const user = userEvent.setup();
    const store = openEditor();
    await user.keyboard('{Escape}');
    expect(postsIn(store.getState()).editor.open).toBe(false);
    expect(screen.queryByRole('dialog', { name: 'Discard this post?' })).not.toBeInTheDocument();
  });

  it('asks before Escape throws away a half-written post; Cancel keeps it', async () => {
    const user = userEvent.setup();
    const store = openEditor();
    await user.type(screen.getByLabelText('Message'), 'Half a thought');
    await user.keyboard('{Escape}');
    const confirm = screen.getByRole('dialog', { name: 'Discard this post?' });
    expect(postsIn(store.getState()).editor.open).toBe(true);

    // Escape on the question answers it (Cancel), and leaves the editor open.
    await user.keyboard('{Escape}');
    expect(confirm).not.toBeInTheDocument();
    expect(postsIn(store.getState()).editor.open).toBe(true);
    expect(screen.getByLabelText('Message')).toHaveValue('Half a thought');

    fireEvent.mouseDown(backdrop());
    await user.click(
      within(screen.getByRole('dialog', { name: 'Discard this post?' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(postsIn(store.getState()).editor.open).toBe(true);
    expect(screen.getByLabelText('Message')).toHaveValue('Half a thought');
  });

  it('asks before a click on the backdrop throws away an upload; Discard closes and clears it', async () => {
    const user = userEvent.setup();
    const store = openEditor('/media/p.webp');
    fireEvent.mouseDown(backdrop());
    const confirm = screen.getByRole('dialog', { name: 'Discard this post?' });
    expect(confirm).toHaveTextContent('Its message, tags and image will be lost.');
    expect(postsIn(store.getState()).editor.open).toBe(true);
    await user.click(within(confirm).getByRole('button', { name: 'Discard' }));
    expect(postsIn(store.getState()).editor.open).toBe(false);
    expect(selectUploads(store.getState()).post.url).toBeNull();
  });
});

describe('PostEditor: an album (issue 71)', () => {
  it('asks about the photos, not the image, when several would be lost', async () => {
    const store = openEditor();
    const crop = { x: 0.5, y: 0.5, fit: false };
    // After the form's own start (it empties the list of a new post).
    await vi.waitFor(() => expect(store.getState().uploadList).toBeDefined());
    store.dispatch(
      photosLoaded(['a', 'b'].map((name) => ({ image: `/media/post/${name}.webp`, imageInfo: null, alt: '', crop }))),
    );
    await screen.findByLabelText('Alt text for photo 2');
    await userEvent.setup().keyboard('{Escape}');
    const confirm = await screen.findByRole('dialog', { name: 'Discard this post?' });
    expect(confirm).toHaveTextContent('Its message, tags and photos will be lost.');
  });
});

describe('PostEditor of a moved account (issue 76)', () => {
  it('says the account takes no new posts, with no form to fill in', () => {
    const store = makeStore(
      signedInState(buildUser({ username: 'ann', movedTo: { _id: 'b1', username: 'bob', displayName: null } })),
    );
    store.dispatch(editorOpened(null));
    renderWithProviders(<PostEditor />, { store });
    expect(within(editor()).getByRole('alert')).toHaveTextContent(
      'This account has moved to @bob: it takes no new posts.',
    );
    expect(screen.queryByLabelText('Message')).toBeNull();
  });
});
