import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ALT_MAX, MESSAGE_MAX, SPOILER_MAX, TAG_MAX } from '../../../../../lib/limits';
import { TEXTS } from '../../../../../lib/texts';
import { tagError } from '../../../../../lib/validation';
import { PostForm } from '../../../../../features/posts/components/PostForm';
import { makeStore } from '../../../../../store';
import { editorOpened } from '../../../../../features/posts/state/editor';
import { buildPost, buildUser } from '../../../support/factories';
import { renderWithProviders, signedInState } from '../../../support/renderWithProviders';
import { server } from '../../../support/server';
import { selectUploads } from '../../../../../features/uploads/state/uploadFilesSlice';
import { postsIn } from '../../../../../features/posts/state/postsIn';

const me = buildUser({ username: 'me' });

function withUpload(url: string | null) {
  const base = makeStore().getState();
  return { ...signedInState(me), uploadFiles: { ...selectUploads(base), post: { ...selectUploads(base).post, url } } };
}

const tagInput = () => screen.getByLabelText('Tags');
const publish = () => screen.getByRole('button', { name: 'Publish' });

describe('PostForm', () => {
  it('shows the upload hint text exactly', () => {
    renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload(null) });
    expect(screen.getByText('Allowed Formats: JPEG, PNG. Max size: 4mb.')).toBeInTheDocument();
  });

  it('keeps Publish disabled until an image and a tag exist', async () => {
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload(null) });
    await user.type(tagInput(), 'cats{Enter}');
    expect(publish()).toBeDisabled();
    unmount();

    renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload('/media/p.webp') });
    expect(publish()).toBeDisabled();
    await user.type(tagInput(), 'cats{Enter}');
    expect(publish()).toBeEnabled();
  });

  it('takes a #hashtag in the message as the tag Publish needs (the server adds it to the tags)', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload('/media/p.webp') });
    await user.type(screen.getByLabelText('Message'), 'Look #123');
    expect(publish()).toBeDisabled();
    await user.type(screen.getByLabelText('Message'), ' #cats');
    expect(publish()).toBeEnabled();
  });

  it('adds a tag on Enter, clears the input and ignores a duplicate', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload('/media/p.webp') });
    await user.type(tagInput(), 'Cats{Enter}');
    expect(tagInput()).toHaveValue('');
    expect(screen.getByText('#Cats')).toBeInTheDocument();
    await user.type(tagInput(), 'cats{Enter}');
    expect(tagInput()).toHaveValue('');
    expect(screen.getAllByRole('button', { name: /^Remove tag/ })).toHaveLength(1);
  });

  it(`rejects an empty tag and one over ${TAG_MAX} characters with "Please enter a tag "`, async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload('/media/p.webp') });
    await user.type(tagInput(), '   {Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Please enter a tag ');

    await user.clear(tagInput());
    await user.type(tagInput(), `${'a'.repeat(TAG_MAX + 1)}{Enter}`);
    expect(screen.getByRole('alert').textContent).toBe('Please enter a tag ');
    expect(screen.queryByRole('button', { name: /^Remove tag/ })).not.toBeInTheDocument();
    // The spec's text, and why, beside the field (issue 68, item 17).
    expect(tagInput()).toHaveAccessibleDescription(`Please enter a tag Tags can be at most ${TAG_MAX} characters`);

    await user.clear(tagInput());
    await user.type(tagInput(), `${'a'.repeat(TAG_MAX)}{Enter}`);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/Tags can be at most/)).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Remove tag/ })).toHaveLength(1);
  });

  it('requires a message: "Please fill the message field"', async () => {
    const user = userEvent.setup();
    let created = 0;
    server.use(
      http.post('/api/posts/create', () => {
        created += 1;
        return HttpResponse.json(buildPost(), { status: 201 });
      }),
    );
    renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload('/media/p.webp') });
    await user.type(tagInput(), 'cats{Enter}');
    await user.click(publish());
    expect(await screen.findByText(TEXTS.messageRequired)).toBeInTheDocument();
    expect(created).toBe(0);
  });

  it(`limits the message to ${MESSAGE_MAX} characters and counts down the characters left`, async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload('/media/p.webp') });
    const message = screen.getByLabelText('Message');
    expect(message).toHaveAttribute('maxLength', String(MESSAGE_MAX));
    // The count is part of the field's description, so a screen reader hears it on focus.
    expect(message).toHaveAccessibleDescription(`${MESSAGE_MAX} characters left`);
    await user.type(message, 'Hello');
    expect(screen.getByText(`${MESSAGE_MAX - 5} characters left`)).toBeInTheDocument();

    await user.clear(message);
    await user.click(message);
    await user.paste('x'.repeat(MESSAGE_MAX + 1));
    expect(message).toHaveValue('x'.repeat(MESSAGE_MAX));
    expect(message).toHaveAccessibleDescription('0 characters left');
    await user.click(publish());
    // A full message is a message: no "Please fill the message field".
    expect(screen.queryByText(TEXTS.messageRequired)).not.toBeInTheDocument();
  });

  it('adds a tag with a visible Add button, not only with Enter (issue 68, item 19)', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload('/media/p.webp') });
    await user.type(tagInput(), 'harbour');
    await user.click(screen.getByRole('button', { name: 'Add tag' }));
    expect(tagInput()).toHaveValue('');
    expect(screen.getByRole('button', { name: /^Remove tag/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add tag' }));
    expect(screen.getByRole('alert').textContent).toBe(TEXTS.tagRequired);
  });

  it("refuses at Enter the tags the server refuses, with the rule's text", async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload('/media/p.webp') });
    await user.type(tagInput(), '#{Enter}');
    expect(screen.getByRole('alert').textContent).toBe(TEXTS.tagRequired);
    expect(tagError('')).toBe(TEXTS.tagRequired);

    await user.clear(tagInput());
    await user.type(tagInput(), 'two words{Enter}');
    expect(screen.getByRole('alert').textContent).toBe(tagError('two words'));
    expect(screen.getByRole('alert').textContent).toBe('Tags may contain only letters, digits, _ and -');
    expect(tagInput()).toHaveValue('two words');
    expect(screen.queryByRole('button', { name: /^Remove tag/ })).not.toBeInTheDocument();

    await user.clear(tagInput());
    await user.type(tagInput(), '#two_words-2{Enter}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('#two_words-2')).toBeInTheDocument();
  });

  it('publishes, then closes, resets and clears the uploaded image', async () => {
    const user = userEvent.setup();
    let body: unknown;
    server.use(
      http.post('/api/posts/create', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(buildPost(), { status: 201 });
      }),
    );
    const store = makeStore(withUpload('/media/p.webp'));
    store.dispatch(editorOpened(null));
    renderWithProviders(<PostForm post={null} />, { store });
    await user.type(screen.getByLabelText('Message'), 'Hello there');
    await user.type(tagInput(), 'cats{Enter}');
    await user.click(publish());
    await vi.waitFor(() => expect(postsIn(store.getState()).editor.open).toBe(false));
    // Photos go as the ordered `images` list (issue 71), each with its alt text and crop.
    expect(body).toMatchObject({
      message: 'Hello there',
      images: [{ image: '/media/p.webp', alt: '', crop: { x: 0.5, y: 0.5, fit: false } }],
      tags: ['cats'],
    });
    expect(body).not.toHaveProperty('image');
    expect(selectUploads(store.getState()).post.url).toBeNull();
    expect(store.getState().uploadList?.items).toEqual([]);
  });

  it('reads Edit when editing, with the post already filled in', () => {
    const post = buildPost({ message: 'Existing', tags: ['old'], creator: 'me' });
    renderWithProviders(<PostForm post={post} />, { preloadedState: withUpload(null) });
    expect(screen.getByRole('button', { name: 'Edit' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Publish' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toHaveValue('Existing');
  });

  it('shows loading while a shared image uploads', () => {
    const base = makeStore().getState();
    renderWithProviders(<PostForm post={null} />, {
      preloadedState: {
        ...signedInState(me),
        uploadFiles: { ...selectUploads(base), post: { ...selectUploads(base).post, loading: true, progress: 40 } },
      },
    });
    expect(publish()).toHaveAttribute('aria-busy', 'true');
  });
});

describe('PostForm: alt text and content warning', () => {
  it('sends the alt text and, for a sensitive image, the content warning; counts what is left', async () => {
    const user = userEvent.setup();
    let body: unknown;
    server.use(
      http.post('/api/posts/create', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(buildPost(), { status: 201 });
      }),
    );
    renderWithProviders(<PostForm post={null} />, { preloadedState: withUpload('/media/p.webp') });
    await user.type(screen.getByLabelText('Message'), 'Night walk');
    await user.type(screen.getByLabelText('Alt text for photo 1'), 'A fox under a lamp');
    expect(screen.getByLabelText('Alt text for photo 1')).toHaveAttribute('maxlength', String(ALT_MAX));
    expect(screen.queryByLabelText('Content warning')).toBeNull();
    await user.click(screen.getByLabelText('Sensitive image (shown blurred until clicked)'));
    await user.type(screen.getByLabelText('Content warning'), 'Wild animal');
    expect(screen.getByLabelText('Content warning')).toHaveAttribute('maxlength', String(SPOILER_MAX));
    await user.type(tagInput(), 'fox{Enter}');
    await user.click(publish());
    await vi.waitFor(() =>
      expect(body).toMatchObject({
        images: [{ image: '/media/p.webp', alt: 'A fox under a lamp' }],
        sensitive: true,
        spoiler: 'Wild animal',
      }),
    );
  });
});

describe('PostForm: editing an album (issue 71)', () => {
  const crop = { x: 0.5, y: 0.5, fit: false };
  const album = () =>
    buildPost({
      creator: 'me',
      images: ['a', 'b', 'c'].map((name) => ({ image: `/media/post/${name}.webp`, imageInfo: null, alt: name, crop })),
    });

  it('sends the photos in their new order, with their alt texts, as the whole list', async () => {
    const user = userEvent.setup();
    let body: { post?: unknown } = {};
    server.use(
      http.patch('/api/posts/:id/manage', async ({ request }) => {
        body = (await request.json()) as typeof body;
        return HttpResponse.json(buildPost());
      }),
    );
    const hasChanges = { current: () => false };
    renderWithProviders(<PostForm post={album()} hasChangesRef={hasChanges} />, { preloadedState: withUpload(null) });
    expect(hasChanges.current()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Move photo 3 left' }));
    await user.click(screen.getByRole('button', { name: 'Remove photo 1' }));
    await user.type(screen.getByLabelText('Alt text for photo 1'), ' again');
    expect(hasChanges.current()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await vi.waitFor(() =>
      expect(body.post).toMatchObject({
        images: [
          { image: '/media/post/c.webp', alt: 'c again', crop },
          { image: '/media/post/b.webp', alt: 'b', crop },
        ],
      }),
    );
  });

  it('keeps the last photo: a post keeps at least one', async () => {
    const user = userEvent.setup();
    const post = buildPost({ creator: 'me' });
    renderWithProviders(<PostForm post={post} />, { preloadedState: withUpload(null) });
    await user.click(screen.getByRole('button', { name: 'Remove photo 1' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'A post keeps at least one photo: add another before removing this one.',
    );
    expect(screen.getByLabelText('Alt text for photo 1')).toBeInTheDocument();
  });
});
