import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import userEvent from '@testing-library/user-event';
import {
  PEOPLE_SEARCH_DEBOUNCE_MS,
  REMOTE_SEARCH_DEBOUNCE_MS,
  searchDelayOf,
} from '../../../../features/search/components/PeopleResults';
import { TagSearch } from '../../../../features/search/components/TagSearch';
import { renderWithProviders } from '../../support/renderWithProviders';
import { router } from '../../support/router';
import { server } from '../../support/server';
import type { PersonResult } from '../../../../lib/types';

const input = () => screen.getByLabelText('Add a tag to search');

describe('TagSearch', () => {
  it('adds tags on Enter and counts them as "n tag" / "n tags"', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), 'cats{Enter}');
    expect(input()).toHaveValue('');
    expect(screen.getByText('1 tag')).toBeInTheDocument();
    await user.type(input(), 'dogs{Enter}');
    expect(screen.getByText('2 tags')).toBeInTheDocument();
  });

  it('shows "Remove all tags" only from 2 tags', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), 'cats{Enter}');
    expect(screen.queryByRole('button', { name: 'Remove all tags' })).not.toBeInTheDocument();
    await user.type(input(), 'dogs{Enter}');
    await user.click(screen.getByRole('button', { name: 'Remove all tags' }));
    expect(screen.queryByText(/tags?$/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove tag/ })).not.toBeInTheDocument();
  });

  it('goes to /tagged/{tag1,tag2} on Search', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), 'cats{Enter}');
    await user.type(input(), 'dogs{Enter}');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(router.push).toHaveBeenCalledWith('/tagged/cats,dogs');
  });

  it('does not search without a tag', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(router.push).not.toHaveBeenCalled();
  });
});

describe('TagSearch panel', () => {
  it('shows the tag list only while the search is in use', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <TagSearch />
        <button type="button">Elsewhere</button>
      </>,
    );
    await user.type(input(), 'cats{Enter}');
    expect(screen.getByText('1 tag')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByText('1 tag')).not.toBeInTheDocument();
    await user.click(input());
    expect(screen.getByText('1 tag')).toBeInTheDocument();
  });
});

describe('TagSearch chips', () => {
  it('removes one tag and keeps focus in the search', async () => {
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), 'cats{Enter}');
    await user.type(input(), 'dogs{Enter}');
    await user.click(screen.getByRole('button', { name: 'Remove tag cats' }));
    expect(screen.getByText('1 tag')).toBeInTheDocument();
    expect(input()).toHaveFocus();
  });
});

describe('TagSearch: people', () => {
  function people(found: PersonResult[]) {
    const asked: string[] = [];
    server.use(
      http.get('/api/users/search', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('q') ?? '');
        return HttpResponse.json(found.filter((p) => p.username.toLowerCase().startsWith(asked.at(-1)!.toLowerCase())));
      }),
    );
    return asked;
  }
  const ann = { _id: 'u1', username: 'ann', avatar: null, description: 'Sailor', followedByMe: true };
  const annie = { _id: 'u2', username: 'annie', avatar: null, description: '', followedByMe: false };

  it('shows people as you type, asking once typing pauses, beside the tags', async () => {
    const asked = people([ann, annie]);
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), 'sea{Enter}');
    await user.type(input(), 'an');
    const found = await screen.findByRole('region', { name: 'People' });
    await within(found).findByRole('link', { name: /^ann Sailor Following$/ });
    expect(within(found).getByRole('link', { name: /^annie$/ })).toHaveAttribute('href', '/profile/annie');
    expect(within(found).getByRole('status')).toHaveTextContent('People (2)');
    // Typing fast asked once, for what was there when typing paused.
    expect(asked).toEqual(['an']);
    expect(screen.getByText('1 tag')).toBeInTheDocument();
    // A plain word is still a tag.
    await user.keyboard('{Enter}');
    expect(screen.getByText('2 tags')).toBeInTheDocument();
  });

  it('@name searches people only: Enter opens the first one, no tag is added', async () => {
    people([ann, annie]);
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), '@ANN');
    await screen.findByRole('link', { name: /^annie$/ });
    await user.keyboard('{Enter}');
    expect(router.push).toHaveBeenCalledWith('/profile/ann');
    expect(screen.queryByText(/tags?$/)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('@name@host looks up someone elsewhere: the server is asked for the handle, Enter opens their profile', async () => {
    const asked: string[] = [];
    const bob = { _id: 'u3', username: 'bob@remote.example:8080', avatar: null, description: '', followedByMe: false };
    server.use(
      http.get('/api/users/search', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('q') ?? '');
        return HttpResponse.json([bob]);
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), '@bob@remote.example:8080');
    const link = await screen.findByRole('link', { name: /^bob@remote\.example:8080$/ });
    expect(link).toHaveAttribute('href', '/profile/@bob@remote.example:8080');
    expect(asked.at(-1)).toBe('@bob@remote.example:8080');
    await user.keyboard('{Enter}');
    expect(router.push).toHaveBeenCalledWith('/profile/@bob@remote.example:8080');
    expect(screen.queryByText(/tags?$/)).not.toBeInTheDocument();
  });

  it('waits longer before looking up someone elsewhere: a host typed halfway is never asked for', async () => {
    const asked = people([ann]);
    renderWithProviders(<TagSearch />);
    const typed = (value: string) => fireEvent.change(input(), { target: { value } });
    input().focus();
    // Only the look-up's delay is faked, moved on by hand; the requests run on real timers.
    const fakeDelays = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // A local name: asked once typing pauses for the short delay.
      fakeDelays();
      typed('@an');
      await vi.advanceTimersByTimeAsync(PEOPLE_SEARCH_DEBOUNCE_MS);
      vi.useRealTimers();
      await waitFor(() => expect(asked).toEqual(['an']));
      // A handle: pauses longer than the short delay, but shorter than a handle's, ask nothing.
      fakeDelays();
      typed('@bob@mastodon.soc');
      await vi.advanceTimersByTimeAsync(REMOTE_SEARCH_DEBOUNCE_MS - 1);
      typed('@bob@mastodon.social');
      await vi.advanceTimersByTimeAsync(REMOTE_SEARCH_DEBOUNCE_MS - 1);
      expect(asked).toEqual(['an']);
      // Once the handle's pause is over, the whole handle is asked for.
      await vi.advanceTimersByTimeAsync(1);
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(asked).toEqual(['an', '@bob@mastodon.social']));
  });

  it('looks up an address or a handle after the longer pause, a name after the short one', () => {
    expect(searchDelayOf('@an')).toBe(PEOPLE_SEARCH_DEBOUNCE_MS);
    expect(searchDelayOf('ann')).toBe(PEOPLE_SEARCH_DEBOUNCE_MS);
    for (const q of [
      '@bob@mastodon.soc',
      'bob@example.social',
      'acct:bob@example.social',
      'https://example.social/@bob',
    ])
      expect(searchDelayOf(q), q).toBe(REMOTE_SEARCH_DEBOUNCE_MS);
    expect(REMOTE_SEARCH_DEBOUNCE_MS).toBeGreaterThan(PEOPLE_SEARCH_DEBOUNCE_MS);
  });

  it('moves from the field into the people with the arrow keys and back', async () => {
    people([ann, annie]);
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), '@an');
    const first = await screen.findByRole('link', { name: /^ann / });
    await user.keyboard('{ArrowDown}');
    expect(first).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: /^annie$/ })).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(input()).toHaveFocus();
  });

  it('says when nobody is found, and does not ask for what cannot start a username', async () => {
    const asked = people([ann]);
    const user = userEvent.setup();
    renderWithProviders(<TagSearch />);
    await user.type(input(), 'zed');
    expect(await screen.findByText('No people found')).toBeInTheDocument();
    await user.clear(input());
    await user.type(input(), 'two words');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(asked).toEqual(['zed']);
    expect(screen.queryByRole('region', { name: 'People' })).not.toBeInTheDocument();
  });
});
