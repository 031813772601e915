import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { PostCard } from '../../../../../features/posts/components/PostCard';
import { selectEditor } from '../../../../../features/posts/state/editor';
import { buildPost, buildUser } from '../../../support/factories';
import { renderWithProviders, signedInState } from '../../../support/renderWithProviders';
import { server } from '../../../support/server';
import { postsIn } from '../../../../../features/posts/state/postsIn';

const me = buildUser({ username: 'me' });

describe('PostCard', () => {
  it('links the creator, the tags and the comments, and shows counts and my reaction', () => {
    const post = buildPost({
      _id: 'p1',
      creator: 'bob',
      tags: ['sea', 'boats'],
      likesCount: 3,
      dislikesCount: 1,
      commentsCount: 2,
      myReaction: 'like',
    });
    renderWithProviders(<PostCard post={post} />, { preloadedState: signedInState(me) });
    expect(screen.getByRole('link', { name: 'bob' })).toHaveAttribute('href', '/profile/bob');
    expect(screen.getByRole('link', { name: '#sea' })).toHaveAttribute('href', '/tagged/sea');
    expect(screen.getByRole('link', { name: '2 comments, open post' })).toHaveAttribute('href', '/post/p1#comments');
    expect(screen.getByRole('button', { name: 'Like post, 3 likes' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Dislike post, 1 dislike' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('button', { name: 'Edit post' })).not.toBeInTheDocument();
  });

  it('says a post imported from Instagram or another Posts instance was imported, beside its date (issue 76), and no other post', () => {
    const { rerender } = renderWithProviders(<PostCard post={buildPost({ _id: 'p1', importedFrom: 'instagram' })} />);
    expect(screen.getByText('Imported from Instagram')).toBeInTheDocument();
    rerender(<PostCard post={buildPost({ _id: 'p1', importedFrom: 'posts' })} />);
    expect(screen.getByText('Imported from another Posts instance')).toBeInTheDocument();
    expect(screen.queryByText('Imported from Instagram')).not.toBeInTheDocument();
    rerender(<PostCard post={buildPost({ _id: 'p1' })} />);
    expect(screen.queryByText(/^Imported from/)).not.toBeInTheDocument();
  });

  it('saves and unsaves the post with its Save toggle (issue 73), pressed when savedByMe', async () => {
    const user = userEvent.setup();
    const calls: string[] = [];
    server.use(
      http.put('/api/posts/p1/save', () => {
        calls.push('PUT');
        return HttpResponse.json(buildPost({ _id: 'p1', creator: 'bob', savedByMe: true }));
      }),
      http.delete('/api/posts/p1/save', () => {
        calls.push('DELETE');
        return HttpResponse.json(buildPost({ _id: 'p1', creator: 'bob' }));
      }),
    );
    const { store, rerender } = renderWithProviders(<PostCard post={buildPost({ _id: 'p1', creator: 'bob' })} />, {
      preloadedState: signedInState(me),
    });
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toHaveAttribute('aria-pressed', 'false');
    await user.click(save);
    await vi.waitFor(() => expect(calls).toEqual(['PUT']));
    await vi.waitFor(() =>
      expect(store.getState().toasts.map((n) => n.message)).toEqual(['Saved. Find it under Saved in your menu']),
    );

    rerender(<PostCard post={buildPost({ _id: 'p1', creator: 'bob', savedByMe: true })} />);
    const saved = screen.getByRole('button', { name: 'Saved' });
    expect(saved).toHaveAttribute('aria-pressed', 'true');
    await user.click(saved);
    await vi.waitFor(() => expect(calls).toEqual(['PUT', 'DELETE']));
    await vi.waitFor(() => expect(store.getState().toasts.map((n) => n.message)).toContain('Removed from Saved'));
  });

  it('has no Save toggle for someone not signed in', () => {
    renderWithProviders(<PostCard post={buildPost({ _id: 'p1', creator: 'bob' })} />);
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('offers Edit and Delete on my own posts; Delete asks first', async () => {
    const user = userEvent.setup();
    let deleted = false;
    server.use(
      http.delete('/api/posts/p1/manage', () => {
        deleted = true;
        return HttpResponse.json({ _id: 'p1' });
      }),
    );
    const { store } = renderWithProviders(<PostCard post={buildPost({ _id: 'p1', creator: 'me' })} />, {
      preloadedState: signedInState(me),
    });
    await user.click(screen.getByRole('button', { name: 'Edit post' }));
    expect(selectEditor(store.getState())).toMatchObject({ open: true, post: { _id: 'p1' } });

    await user.click(screen.getByRole('button', { name: 'Delete post' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this post?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete post' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(store.getState().toasts.map((n) => n.message)).toEqual(['Post has been deleted']));
    expect(deleted).toBe(true);
  });

  it("shows Delete, not Edit, to an admin on anyone's post, with the same confirmation", async () => {
    const user = userEvent.setup();
    let deleted = false;
    server.use(
      http.delete('/api/posts/p1/manage', () => {
        deleted = true;
        return HttpResponse.json({ _id: 'p1' });
      }),
    );
    const admin = buildUser({ username: 'root', role: 'admin' });
    const { store } = renderWithProviders(<PostCard post={buildPost({ _id: 'p1', creator: 'bob' })} />, {
      preloadedState: signedInState(admin),
    });
    expect(screen.queryByRole('button', { name: 'Edit post' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete post' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete this post?' })).getByRole('button', { name: 'Delete' }),
    );
    await vi.waitFor(() => expect(store.getState().toasts.map((n) => n.message)).toEqual(['Post has been deleted']));
    expect(deleted).toBe(true);
  });

  it("shows a member neither Edit nor Delete on another's post", () => {
    renderWithProviders(<PostCard post={buildPost({ creator: 'bob' })} />, { preloadedState: signedInState(me) });
    expect(screen.queryByRole('button', { name: 'Delete post' })).not.toBeInTheDocument();
  });

  it('toasts "Liked" only when the like is set, not when it is taken back', async () => {
    const user = userEvent.setup();
    let mine: 'like' | null = null;
    server.use(
      http.patch('/api/posts/p1/like', () => {
        mine = mine ? null : 'like';
        return HttpResponse.json({ likesCount: mine ? 1 : 0, dislikesCount: 0, myReaction: mine });
      }),
    );
    const { store } = renderWithProviders(<PostCard post={buildPost({ _id: 'p1', creator: 'bob' })} />, {
      preloadedState: signedInState(me),
    });
    const like = screen.getByRole('button', { name: /^Like post/ });
    await user.click(like);
    await vi.waitFor(() => expect(postsIn(store.getState()).like.status).toBe('done'));
    await waitFor(() => expect(like).not.toHaveAttribute('aria-disabled'));
    await user.click(like);
    await vi.waitFor(() => expect(mine).toBeNull());
    await waitFor(() => expect(like).not.toHaveAttribute('aria-disabled'));
    expect(store.getState().toasts.map((n) => n.message)).toEqual(['Liked']);
  });

  it('sends one toggle for a double click, the buttons refusing while it is in flight', async () => {
    const user = userEvent.setup();
    let calls = 0;
    let answer: () => void = () => {};
    server.use(
      http.patch('/api/posts/p1/dislike', async () => {
        calls += 1;
        await new Promise<void>((resolve) => (answer = resolve));
        return HttpResponse.json({ likesCount: 0, dislikesCount: 1, myReaction: 'dislike' });
      }),
    );
    const { store } = renderWithProviders(<PostCard post={buildPost({ _id: 'p1', creator: 'bob' })} />, {
      preloadedState: signedInState(me),
    });
    const dislike = screen.getByRole('button', { name: /^Dislike post/ });
    await user.dblClick(dislike);
    await vi.waitFor(() => expect(calls).toBe(1));
    expect(dislike).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: /^Like post/ })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: /^Like post/ }));
    answer();
    await waitFor(() => expect(dislike).not.toHaveAttribute('aria-disabled'));
    expect(calls).toBe(1);
    expect(store.getState().toasts.map((n) => n.message)).toEqual(['Disliked']);
  });
});
