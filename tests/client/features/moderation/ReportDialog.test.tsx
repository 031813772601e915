import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { PostCard } from '../../../../features/posts/components/PostCard';
import { setAlwaysShowSensitive } from '../../../../hooks/useSensitiveMedia';
import { buildPost, buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const me = buildUser({ username: 'me' });

describe('Report', () => {
  it("sends the chosen reason and note for another user's post, and thanks the reporter", async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('/api/reports', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ id: 'r1' }, { status: 201 });
      }),
    );
    renderWithProviders(<PostCard post={buildPost({ _id: 'p1', creator: 'bob' })} />, {
      preloadedState: signedInState(me),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Report post by bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this post' });
    await userEvent.click(screen.getByLabelText('Abuse or harassment'));
    await userEvent.type(screen.getByLabelText('Note for the admins (optional)'), ' Insults ');
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }));
    await screen.findByText('Thank you. An admin will look at your report.');
    expect(sent).toEqual([{ targetType: 'post', targetId: 'p1', reason: 'abuse', note: 'Insults' }]);
    expect(dialog).toBeInTheDocument();
  });

  it("shows the server's message when the report is refused", async () => {
    server.use(
      http.post('/api/reports', () =>
        HttpResponse.json({ message: 'You have already reported this', code: 'AlreadyReported' }, { status: 409 }),
      ),
    );
    renderWithProviders(<PostCard post={buildPost({ creator: 'bob' })} />, { preloadedState: signedInState(me) });
    await userEvent.click(screen.getByRole('button', { name: 'Report post by bob' }));
    await screen.findByRole('dialog');
    await userEvent.click(screen.getByLabelText('Spam'));
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You have already reported this');
  });

  it('chooses no reason for the reporter, and asks for one before sending (issue 68, item 22)', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('/api/reports', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ id: 'r1' }, { status: 201 });
      }),
    );
    renderWithProviders(<PostCard post={buildPost({ _id: 'p1', creator: 'bob' })} />, {
      preloadedState: signedInState(me),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Report post by bob' }));
    await screen.findByRole('dialog', { name: 'Report this post' });
    const reasons = screen.getByRole('radiogroup', { name: 'Why are you reporting it?' });
    for (const radio of screen.getAllByRole('radio')) expect(radio).not.toBeChecked();

    await userEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a reason for your report.');
    expect(reasons).toHaveAttribute('aria-invalid', 'true');
    expect(reasons).toHaveAccessibleDescription('Choose a reason for your report.');
    expect(screen.getByLabelText('Spam')).toHaveFocus();
    expect(sent).toEqual([]);

    await userEvent.click(screen.getByLabelText('Spam'));
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }));
    await screen.findByText('Thank you. An admin will look at your report.');
    expect(sent).toEqual([{ targetType: 'post', targetId: 'p1', reason: 'spam', note: '' }]);
  });

  it('is not offered on my own posts', () => {
    renderWithProviders(<PostCard post={buildPost({ creator: 'me' })} />, { preloadedState: signedInState(me) });
    expect(screen.queryByRole('button', { name: /^Report/ })).toBeNull();
  });
});

describe('alt text and sensitive images', () => {
  afterEach(() => setAlwaysShowSensitive(false));

  it("renders the author's alt text, else the generated one", () => {
    renderWithProviders(
      <>
        <PostCard post={buildPost({ creator: 'bob', alt: 'A red kite over a field' })} />
        <PostCard post={buildPost({ creator: 'ann', message: 'Kites', alt: '' })} />
      </>,
      { preloadedState: signedInState(me) },
    );
    expect(screen.getByRole('img', { name: 'A red kite over a field' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Image posted by ann: Kites' })).toBeInTheDocument();
  });

  it('hides a sensitive image behind its content warning until Show', async () => {
    renderWithProviders(
      <PostCard post={buildPost({ creator: 'bob', alt: 'A spider', sensitive: true, spoiler: 'Spiders' })} />,
      { preloadedState: signedInState(me) },
    );
    expect(screen.queryByRole('img', { name: 'A spider' })).toBeNull();
    expect(screen.getByText('Spiders')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show sensitive image: Spiders' }));
    expect(screen.getByRole('img', { name: 'A spider' })).toBeInTheDocument();
  });

  it('shows it at once with "Always show sensitive media"', async () => {
    setAlwaysShowSensitive(true);
    renderWithProviders(<PostCard post={buildPost({ alt: 'A spider', sensitive: true, spoiler: 'Spiders' })} />, {
      preloadedState: signedInState(me),
    });
    await waitFor(() => expect(screen.getByRole('img', { name: 'A spider' })).toBeInTheDocument());
  });
});
