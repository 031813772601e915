import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { CommentForm } from '../../../../features/posts/components/comments/CommentForm';
import type { PersonResult } from '../../../../lib/types';
import { buildComment, buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const me = buildUser({ username: 'me' });
/** The options' accessible names (the avatar's letter is hidden from them). */
const optionNames = (list: HTMLElement) =>
  within(list)
    .getAllByRole('option')
    .map((o) => {
      const hidden = Array.from(o.querySelectorAll('[aria-hidden="true"]')).map((h) => h.textContent ?? '');
      return hidden.reduce((text, h) => text.replace(h, ''), o.textContent ?? '');
    });
const person = (username: string, followedByMe = false): PersonResult => ({
  _id: `id-${username}`,
  username,
  avatar: null,
  description: '',
  followedByMe,
});

/** Issue 68, item 31: the comment field's `@` list, with the field as an ARIA combobox. */
describe('mention suggestions in the comment field', () => {
  it('keeps the answer to the latest prefix when an older one arrives after it', async () => {
    server.use(
      http.get('/api/people/suggest', async ({ request }) => {
        const q = new URL(request.url).searchParams.get('q');
        if (q === 'a') {
          // Answered after the longer prefix's answer (if it is not aborted first).
          await delay(400);
          return HttpResponse.json([person('aaron'), person('alice')]);
        }
        return HttpResponse.json([person('alice', true), person('alfred')]);
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<CommentForm postId="p1" />, { preloadedState: signedInState(me) });
    const field = screen.getByRole('textbox', { name: 'Write a comment' });
    await user.type(field, '@a');
    // The list's code loads at the first `@`; its first question (for `a`) goes out after the pause.
    const combobox = await screen.findByRole('combobox', { name: 'Write a comment' });
    await new Promise((resolve) => setTimeout(resolve, 250));
    await user.type(combobox, 'l');
    const list = await screen.findByRole('listbox', { name: 'People to mention' });
    await vi.waitFor(() => expect(optionNames(list)).toEqual(['@aliceFollowing', '@alfred']));
    expect(within(list).getAllByRole('option')[0]).toHaveAccessibleName('@alice Following');
    // Past the time the answer for `a` would have come: the list is still the answer for `al`.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(optionNames(list)).toEqual(['@aliceFollowing', '@alfred']);
    expect(combobox).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('2 people found')).toBeInTheDocument();
  });

  it('Enter picks while the list is open (not sending), Escape closes it, then Enter sends', async () => {
    const sent: string[] = [];
    server.use(
      http.get('/api/people/suggest', () => HttpResponse.json([person('alice', true), person('bob@far.example')])),
      http.post('/api/posts/p1/comments', async ({ request }) => {
        const { message } = (await request.json()) as { message: string };
        sent.push(message);
        return HttpResponse.json(buildComment({ message }), { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<CommentForm postId="p1" />, { preloadedState: signedInState(me) });
    const field = screen.getByRole('textbox', { name: 'Write a comment' });
    await user.type(field, 'Hi @');
    const combobox = await screen.findByRole('combobox', { name: 'Write a comment' });
    await user.type(combobox, 'b');
    const list = await screen.findByRole('listbox', { name: 'People to mention' });
    await vi.waitFor(() => expect(combobox).toHaveAttribute('aria-expanded', 'true'));
    // Narrowed by what was typed: only bob@far.example starts with `b`.
    const options = within(list).getAllByRole('option');
    expect(optionNames(list)).toEqual(['@bob@far.example']);
    expect(combobox).toHaveAttribute('aria-activedescendant', options[0].id);
    expect(combobox).toHaveAttribute('aria-controls', list.id);

    await user.keyboard('{Escape}');
    expect(combobox).toHaveAttribute('aria-expanded', 'false');
    expect(combobox).not.toHaveAttribute('aria-activedescendant');
    expect(combobox).toHaveValue('Hi @b');

    await user.clear(combobox);
    await user.type(combobox, 'Hi @b');
    await vi.waitFor(() => expect(combobox).toHaveAttribute('aria-expanded', 'true'));
    await user.keyboard('{Enter}');
    expect(combobox).toHaveValue('Hi @bob@far.example ');
    expect(sent).toEqual([]);

    // Tab picks too. (user-event keeps its own copy of the value, which a value put in natively
    // does not change: the field starts again rather than typing after the pick.)
    await user.clear(combobox);
    await user.type(combobox, 'and @a');
    await vi.waitFor(() => expect(combobox).toHaveAttribute('aria-expanded', 'true'));
    await user.keyboard('{Tab}');
    expect(combobox).toHaveValue('and @alice ');
    expect(combobox).toHaveFocus();
    await user.keyboard('{Enter}');
    await vi.waitFor(() => expect(sent).toEqual(['and @alice']));
  });
});
