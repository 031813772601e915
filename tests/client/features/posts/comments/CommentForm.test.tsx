import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { CommentForm } from '../../../../../features/posts/components/comments/CommentForm';
import { buildComment, buildUser } from '../../../support/factories';
import { renderWithProviders, signedInState } from '../../../support/renderWithProviders';
import { server } from '../../../support/server';

const me = buildUser({ username: 'me' });

/** Issue 68, item 6: a comment can be sent from the keyboard. */
describe('CommentForm', () => {
  it('sends on Enter, takes Shift+Enter as a new line, and says so to screen readers', async () => {
    const sent: string[] = [];
    server.use(
      http.post('/api/posts/p1/comments', async ({ request }) => {
        const { message } = (await request.json()) as { message: string };
        sent.push(message);
        return HttpResponse.json(buildComment({ message }), { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<CommentForm postId="p1" />, { preloadedState: signedInState(me) });
    const field = screen.getByRole('textbox', { name: 'Write a comment' });
    expect(field).toHaveAccessibleDescription('Press Enter to send, Shift+Enter for a new line.');

    await user.type(field, 'Lovely{Shift>}{Enter}{/Shift}light');
    expect(field).toHaveValue('Lovely\nlight');
    expect(sent).toEqual([]);

    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(sent).toEqual(['Lovely\nlight']));
    await vi.waitFor(() => expect(field).toHaveValue(''));
  });

  it('Enter on an empty comment says what is missing instead of sending', async () => {
    const user = userEvent.setup();
    renderWithProviders(<CommentForm postId="p1" />, { preloadedState: signedInState(me) });
    const field = screen.getByRole('textbox', { name: 'Write a comment' });
    await user.type(field, '{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please write a comment');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveValue('');
  });
});
